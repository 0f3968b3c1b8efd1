import { importedAnswerWords } from '../../../../shared/i18n/describe-imported'
import { useT } from '../../app/context'
import type { AssistantItem } from '../../stores/chat-items'
import './imported-model-label.css'

/** Under an imported answer: the app it came from and the model that wrote it ("ChatGPT · o3"). */
export function ImportedModelLabel({ imported }: { imported: AssistantItem['imported'] }): React.JSX.Element | null {
  const t = useT()
  if (!imported) return null
  const { label, title } = importedAnswerWords(imported, t)
  return (
    <div className="imported-model" title={title} data-testid="imported-model">
      {label}
    </div>
  )
}

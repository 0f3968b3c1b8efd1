import type { RecalledItem } from '../../../../shared/recall'
import { useT } from '../../app/context'
import './recalled-memory.css'

/**
 * "Recalled 2 memories" under a user's message: what a memory provider offered the model with it,
 * each item with the provider it came from. Folded: it is context, not part of what the user said.
 */
export function RecalledMemory({ items }: { items: readonly RecalledItem[] }): React.JSX.Element | null {
  const t = useT()
  if (!items.length) return null
  return (
    <details className="recalled-memory">
      <summary>{t('recall.shown', { count: items.length })}</summary>
      <ul>
        {items.map((item) => (
          <li key={`${item.provider}:${item.id}`}>
            <span className="recalled-text">{item.text}</span>
            <span className="recalled-source">{t('recall.from', { provider: t(`recall.provider.${item.provider}`) })}</span>
          </li>
        ))}
      </ul>
    </details>
  )
}

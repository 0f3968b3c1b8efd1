import { useState } from 'react'
import { useT } from '../../app/context'

/** Lines shown before a long text folds behind "Show all". */
export const FOLDED_LINES = 12

/** Text shown as text (real line breaks, never escaped), folded to its first lines when long. */
export function FoldedText({ text, className = '' }: { text: string; className?: string }): React.JSX.Element {
  const t = useT()
  const [all, setAll] = useState(false)
  const lines = text.replace(/\n$/, '').split('\n')
  const long = lines.length > FOLDED_LINES
  const shown = long && !all ? lines.slice(0, FOLDED_LINES).join('\n') : lines.join('\n')
  return (
    <div className="folded-text">
      <pre className={`plain-code ${className}`.trim()}>{shown}</pre>
      {long ? (
        <button type="button" className="ghost-button small folded-toggle" aria-expanded={all} onClick={() => setAll(!all)}>
          {all ? t('tools.showLess') : t('tools.showAll', { count: lines.length })}
        </button>
      ) : null}
    </div>
  )
}

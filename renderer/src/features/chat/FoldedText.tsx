import { useMemo, useState } from 'react'
import { useT } from '../../app/context'
import { countLines, nthNewline } from '../../components/CodeBlock'

/** Lines shown before a long text folds behind "Show all". */
export const FOLDED_LINES = 12
/** Characters shown folded, for output that is long without line breaks (a minified file, a 1 MB log line). */
export const FOLDED_CHARS = 4000

/**
 * Text shown as text (real line breaks, never escaped), folded to its first lines when long. Folded,
 * only the head reaches the DOM: a 1 MB tool output costs its first lines until someone unfolds it.
 */
export function FoldedText({ text, className = '' }: { text: string; className?: string }): React.JSX.Element {
  const t = useT()
  const [all, setAll] = useState(false)
  const { whole, head, lines, byChars } = useMemo(() => fold(text), [text])
  return (
    <div className="folded-text">
      <pre className={`plain-code ${className}`.trim()}>{head === null || all ? whole : head}</pre>
      {head !== null ? (
        <button type="button" className="ghost-button small folded-toggle" aria-expanded={all} onClick={() => setAll(!all)}>
          {all ? t('tools.showLess') : byChars ? t('list.showAllChars', { count: whole.length.toLocaleString() }) : t('tools.showAll', { count: lines })}
        </button>
      ) : null}
    </div>
  )
}

/** The head shown folded: the first lines, or the first characters when those lines are that long. */
function fold(text: string): { whole: string; head: string | null; lines: number; byChars: boolean } {
  const whole = text.replace(/\n$/, '')
  const cut = nthNewline(whole, FOLDED_LINES)
  const lines = countLines(whole)
  if (cut >= 0 && cut <= FOLDED_CHARS) return { whole, head: whole.slice(0, cut), lines, byChars: false }
  return { whole, head: whole.length > FOLDED_CHARS ? `${whole.slice(0, FOLDED_CHARS)}…` : null, lines, byChars: true }
}

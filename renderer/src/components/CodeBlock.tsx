import { createElement, useMemo, useState, type ReactNode } from 'react'
import { useT } from '../app/context'
import { CopyButton } from './CopyButton'
import { highlightCode, type HastNode } from './highlight'

/** Lines a long block shows (plain, not highlighted) until "Show all". */
export const CODE_FOLDED_LINES = 30

/**
 * A fenced code block: language label and a copy button over the code. Highlighted once (and
 * remembered); a long block shows its first lines plain until unfolded, so a 5,000-line paste costs
 * nothing until someone asks to read it. `live` (an answer still streaming): plain, never folded.
 */
export function CodeBlock({ language, text, live = false }: { language: string | null; text: string; live?: boolean }): React.JSX.Element {
  const t = useT()
  const [all, setAll] = useState(false)
  const code = text.replace(/\n$/, '')
  const cut = live ? -1 : nthNewline(code, CODE_FOLDED_LINES)
  const folded = cut >= 0 && !all
  const highlighted = useMemo(() => (live || folded ? null : highlightCode(language, code)), [live, folded, language, code])
  const className = [highlighted ? 'hljs' : '', language ? `language-${language}` : ''].filter(Boolean).join(' ') || undefined
  return (
    <div className="code-block">
      <div className="code-block-bar">
        <span className="code-block-lang">{language ?? ''}</span>
        <CopyButton text={code} compact />
      </div>
      <pre>
        <code className={className}>{folded ? code.slice(0, cut) : highlighted ? renderHast(highlighted) : code}</code>
      </pre>
      {cut >= 0 ? (
        <button type="button" className="ghost-button small code-block-toggle" aria-expanded={all} onClick={() => setAll(!all)}>
          {all ? t('tools.showLess') : t('tools.showAll', { count: countLines(code) })}
        </button>
      ) : null}
    </div>
  )
}

/** Where the text's `count`-th line ends, or -1 when it has no more lines than that (no split of a huge text). */
export function nthNewline(text: string, count: number): number {
  let at = -1
  for (let line = 0; line < count; line++) {
    at = text.indexOf('\n', at + 1)
    if (at < 0) return -1
  }
  return at
}

export function countLines(text: string): number {
  let lines = 1
  for (let at = text.indexOf('\n'); at >= 0; at = text.indexOf('\n', at + 1)) lines++
  return lines
}

function renderHast(nodes: HastNode[]): ReactNode[] {
  return nodes.map((node, index) => {
    if (node.type === 'text') return node.value ?? ''
    const classes = node.properties?.className
    const className = Array.isArray(classes) ? classes.join(' ') : undefined
    // The highlighter only makes spans; nothing else is ever created from what it returns.
    return createElement('span', { key: index, className }, node.children ? renderHast(node.children) : null)
  })
}

import { memo, useContext, type ReactNode } from 'react'
import ReactMarkdown, { type Components } from 'react-markdown'
import remarkGfm from 'remark-gfm'
import remarkMath from 'remark-math'
import rehypeKatex from 'rehype-katex'
import 'katex/dist/katex.min.css'
import './math.css'
// Copying a selection with math in it copies the TeX source (from KaTeX's MathML annotation).
import 'katex/contrib/copy-tex'
import { AppContextValue } from '../app/context'
import { CodeBlock } from './CodeBlock'
import type { HastNode } from './highlight'
import { KATEX_OPTIONS, normaliseMath } from './math'

/** Plain text of a hast subtree (the code a copy button copies, highlighting spans and all). */
export function hastText(node: HastNode | undefined): string {
  if (!node) return ''
  if (node.type === 'text') return node.value ?? ''
  return (node.children ?? []).map(hastText).join('')
}

function languageOf(node: HastNode | undefined): string | null {
  const code = node?.children?.find((child) => child.tagName === 'code')
  const classes = code?.properties?.className
  const list = Array.isArray(classes) ? classes.map(String) : typeof classes === 'string' ? classes.split(' ') : []
  const language = list.find((c) => c.startsWith('language-'))
  return language ? language.slice('language-'.length) : null
}

function MarkdownLink({ href, children }: { href?: string; children?: ReactNode }): React.JSX.Element {
  const app = useContext(AppContextValue)
  const url = href ?? ''
  if (app?.client.mode === 'desktop') {
    // The desktop window never navigates: https links go to the system browser, others stay text.
    if (!/^https:\/\//i.test(url)) return <span className="md-link-inert" title={url}>{children}</span>
    return (
      <a
        href={url}
        title={url}
        onClick={(event) => {
          event.preventDefault()
          void app.client.request('shell.openExternal', { url }).catch(() => {})
        }}
      >
        {children}
      </a>
    )
  }
  if (!url) return <span className="md-link-inert">{children}</span>
  return (
    <a href={url} target="_blank" rel="noreferrer" title={url}>
      {children}
    </a>
  )
}

const components: Components = {
  a: ({ href, children }) => <MarkdownLink href={href}>{children}</MarkdownLink>,
  pre: ({ node }) => <CodeBlock language={languageOf(node as HastNode)} text={hastText(node as HastNode)} />,
  // Remote images would leak that a message was read (and the CSP blocks them): show them as links.
  img: ({ src, alt }) => (
    <MarkdownLink href={typeof src === 'string' ? src : undefined}>
      <span className="md-image">{alt || (typeof src === 'string' ? src : '')}</span>
    </MarkdownLink>
  ),
  table: ({ children }) => (
    <div className="md-table">
      <table>{children}</table>
    </div>
  )
}

interface MdastNode {
  type: string
  value?: string
  children?: MdastNode[]
}

/**
 * Raw HTML in model output is shown as the text it is (`<img onerror=…>` reads as typed), never
 * parsed into elements. `skipHtml` below stays as a second guard.
 */
export function remarkHtmlAsText() {
  const walk = (node: MdastNode): void => {
    if (node.type === 'html') node.type = 'text'
    node.children?.forEach(walk)
  }
  return (tree: MdastNode) => walk(tree)
}

// While an answer streams its code stays plain: highlighting waits for the finished message.
const liveComponents: Components = {
  ...components,
  pre: ({ node }) => <CodeBlock language={languageOf(node as HastNode)} text={hastText(node as HastNode)} live />
}

// A lone `$` is never math: normaliseMath writes real math as `$$…$$` first (money stays money).
const remarkPlugins = [remarkGfm, [remarkMath, { singleDollarTextMath: false }], remarkHtmlAsText] as NonNullable<Parameters<typeof ReactMarkdown>[0]['remarkPlugins']>
const rehypePlugins = [[rehypeKatex, KATEX_OPTIONS]] as NonNullable<Parameters<typeof ReactMarkdown>[0]['rehypePlugins']>

/**
 * Parsed markdown, remembered for the most recent texts: a row that scrolls out of the virtualised
 * list and back is not parsed again. (react-markdown's sync `Markdown` uses no hooks, so calling it
 * gives the element tree; code highlighting happens in `CodeBlock`, remembered the same way.)
 */
const CACHE_SIZE = 300
const parsed = new Map<string, React.JSX.Element>()

function render(text: string, live: boolean): React.JSX.Element {
  return ReactMarkdown({ children: normaliseMath(text), skipHtml: true, remarkPlugins, rehypePlugins, components: live ? liveComponents : components }) as React.JSX.Element
}

function cachedRender(text: string): React.JSX.Element {
  const known = parsed.get(text)
  if (known) {
    parsed.delete(text)
    parsed.set(text, known)
    return known
  }
  const tree = render(text, false)
  parsed.set(text, tree)
  if (parsed.size > CACHE_SIZE) parsed.delete(parsed.keys().next().value as string)
  return tree
}

/**
 * Model output, memory and skill text rendered as markdown. Raw HTML is never rendered (shown as
 * text, `skipHtml`, no rehype-raw); react-markdown's URL filter drops `javascript:` and friends.
 * Math is drawn by KaTeX (math.ts: untrusted commands refused, errors shown as their source).
 */
export const Markdown = memo(function Markdown({ text, className }: { text: string; className?: string }): React.JSX.Element {
  return <div className={className ? `markdown ${className}` : 'markdown'}>{cachedRender(text)}</div>
})

/**
 * An answer while it streams: cut into blocks at blank lines outside code fences, each memoised by
 * its text, so a frame re-parses only the block being written, never the whole answer.
 */
export function StreamingMarkdown({ text }: { text: string }): React.JSX.Element {
  return (
    <div className="markdown">
      {markdownBlocks(text).map((block, index) => (
        <LiveBlock key={index} text={block} />
      ))}
    </div>
  )
}

const LiveBlock = memo(function LiveBlock({ text }: { text: string }): React.JSX.Element {
  return render(text, true)
})

const FENCE = /^ {0,3}(`{3,}|~{3,})/

/** The text in blocks that parse alone: split at blank lines, never inside a fenced code block. */
export function markdownBlocks(text: string): string[] {
  const blocks: string[] = []
  let start = 0
  let fence: string | null = null
  let at = 0
  while (at <= text.length) {
    const end = text.indexOf('\n', at)
    const lineEnd = end < 0 ? text.length : end
    const line = text.slice(at, lineEnd)
    const marker = FENCE.exec(line)?.[1]
    if (marker && (fence === null || (marker[0] === fence[0] && marker.length >= fence.length))) fence = fence === null ? marker : null
    else if (fence === null && line.trim() === '') {
      if (at > start) blocks.push(text.slice(start, at))
      start = lineEnd + 1
    }
    if (end < 0) break
    at = end + 1
  }
  if (start < text.length) blocks.push(text.slice(start))
  return blocks
}

import { memo, useContext, type ReactNode } from 'react'
import ReactMarkdown, { type Components } from 'react-markdown'
import rehypeHighlight from 'rehype-highlight'
import remarkGfm from 'remark-gfm'
import { AppContextValue } from '../app/context'
import { CodeBlock } from './CodeBlock'

interface HastNode {
  type: string
  value?: string
  tagName?: string
  properties?: Record<string, unknown>
  children?: HastNode[]
}

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
  pre: ({ node, children }) => (
    <CodeBlock language={languageOf(node as HastNode)} text={hastText(node as HastNode)}>
      {children}
    </CodeBlock>
  ),
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

const remarkPlugins = [remarkGfm, remarkHtmlAsText]
const rehypePlugins: Parameters<typeof ReactMarkdown>[0]['rehypePlugins'] = [[rehypeHighlight, { detect: false }]]

/**
 * Model output, memory and skill text rendered as markdown. Raw HTML is never rendered (shown as
 * text, `skipHtml`, no rehype-raw); react-markdown's URL filter drops `javascript:` and friends.
 */
export const Markdown = memo(function Markdown({ text, className }: { text: string; className?: string }): React.JSX.Element {
  return (
    <div className={className ? `markdown ${className}` : 'markdown'}>
      <ReactMarkdown skipHtml remarkPlugins={remarkPlugins} rehypePlugins={rehypePlugins} components={components}>
        {text}
      </ReactMarkdown>
    </div>
  )
})

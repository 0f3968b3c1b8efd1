import rehypeHighlight from 'rehype-highlight'

/** The hast a highlighter returns: spans with classes around text. */
export interface HastNode {
  type: string
  value?: string
  tagName?: string
  properties?: Record<string, unknown>
  children?: HastNode[]
}

type Transform = (tree: HastNode, file: { message(reason: string): void }) => void

// One highlighter for the app (building it registers every common language once).
let transform: Transform | null = null
const ignoreUnknownLanguage = { message: () => {} }

// Rows unmount and mount again as the list scrolls; the same code is not highlighted twice.
const CACHE_SIZE = 200
const cache = new Map<string, HastNode[] | null>()

/**
 * The code as highlighted hast children, or null when it stays plain (no or an unknown language).
 * Remembered for the most recent blocks, so scrolling back to a message costs nothing.
 */
export function highlightCode(language: string | null, text: string): HastNode[] | null {
  if (!language) return null
  const key = `${language}\u0000${text}`
  const known = cache.get(key)
  if (known !== undefined) {
    cache.delete(key)
    cache.set(key, known)
    return known
  }
  transform ??= (rehypeHighlight({ detect: false }) as unknown as Transform)
  const plain = [{ type: 'text', value: text }]
  const code: HastNode = { type: 'element', tagName: 'code', properties: { className: [`language-${language}`] }, children: plain }
  transform({ type: 'root', children: [{ type: 'element', tagName: 'pre', properties: {}, children: [code] }] }, ignoreUnknownLanguage)
  // An unknown language leaves the children as they were.
  const highlighted = code.children !== plain ? (code.children ?? null) : null
  cache.set(key, highlighted)
  if (cache.size > CACHE_SIZE) cache.delete(cache.keys().next().value as string)
  return highlighted
}

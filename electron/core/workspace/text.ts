/** Text-size limits shared by the workspace tools, plus helpers that cut text without hiding that they did. */

export function formatCount(n: number): string {
  return n.toLocaleString('en-US')
}

export function omittedMarker(chars: number): string {
  return `\n…[${formatCount(chars)} chars omitted]…\n`
}

/** Keeps the head and the tail (where errors and summaries usually are) and says how much was cut. */
export function capHeadTail(text: string, maxChars: number): { text: string; omitted: number } {
  if (text.length <= maxChars) return { text, omitted: 0 }
  const head = Math.ceil(maxChars / 2)
  const tail = maxChars - head
  const omitted = text.length - maxChars
  return { text: text.slice(0, head) + omittedMarker(omitted) + text.slice(text.length - tail), omitted }
}

/** Keeps the start only, for previews where the beginning is what matters. */
export function capHead(text: string, maxChars: number): string {
  if (text.length <= maxChars) return text
  return text.slice(0, maxChars) + omittedMarker(text.length - maxChars)
}

/** Cuts one long line (minified code, data) to a window, centred on `focus` when given. */
export function capLine(line: string, maxChars: number, focus = 0): string {
  if (line.length <= maxChars) return line
  const start = Math.max(0, Math.min(focus - Math.floor(maxChars / 4), line.length - maxChars))
  const before = start > 0 ? '…' : ''
  const after = start + maxChars < line.length ? '…' : ''
  return before + line.slice(start, start + maxChars) + after
}

/**
 * Collects a stream of text with bounded memory: the first `half` chars and a rolling tail of `half` chars,
 * counting everything in between, so a command printing gigabytes cannot exhaust memory.
 */
export class HeadTailBuffer {
  private head = ''
  private tail = ''
  private total = 0

  constructor(private readonly half: number) {}

  push(chunk: string): void {
    this.total += chunk.length
    if (this.head.length < this.half) {
      const room = this.half - this.head.length
      this.head += chunk.slice(0, room)
      chunk = chunk.slice(room)
      if (chunk === '') return
    }
    this.tail += chunk
    // Trim lazily (at twice the size) so long outputs are not re-copied on every chunk.
    if (this.tail.length > this.half * 2) this.tail = this.tail.slice(this.tail.length - this.half)
  }

  get length(): number {
    return this.total
  }

  /** Everything kept, with a marker where chars were dropped, then cut to `maxChars` if that is smaller. */
  text(maxChars: number): string {
    const tail = this.tail.length > this.half ? this.tail.slice(this.tail.length - this.half) : this.tail
    const dropped = this.total - this.head.length - tail.length
    if (dropped <= 0) return capHeadTail(this.head + tail, maxChars).text
    const keptBudget = Math.min(maxChars, this.head.length + tail.length)
    const headPart = this.head.slice(0, Math.ceil(keptBudget / 2))
    const tailPart = tail.slice(tail.length - (keptBudget - headPart.length))
    return headPart + omittedMarker(this.total - headPart.length - tailPart.length) + tailPart
  }
}

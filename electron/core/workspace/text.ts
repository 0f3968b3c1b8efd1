/** Text helpers of the workspace tools; cutting a long text in the middle is `cutMiddle` of core/text. */

import { cutMiddle } from '../text/cut'

export function formatCount(n: number): string {
  return n.toLocaleString('en-US')
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

  /** Everything kept, with a marker where chars were dropped, cut to at most `maxChars` (marker included). */
  text(maxChars: number): string {
    const tail = this.tail.length > this.half ? this.tail.slice(this.tail.length - this.half) : this.tail
    // When anything was dropped the head is full (`half` chars) and so is the tail: the gap is in the middle.
    return cutMiddle(this.head + tail, maxChars, { alreadyCut: this.total - this.head.length - tail.length })
  }
}

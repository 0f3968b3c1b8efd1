/** Text cutting shared by every part of Cairn that shows or sends a bounded piece of a longer text. */

export interface CutMiddleOptions {
  /** Share of the kept text taken from the head (the rest comes from the tail). Default 0.5. */
  headShare?: number
  /** Words after the count in the marker, e.g. "the result was too long". */
  reason?: string
}

/**
 * Cuts the middle out of `text` so the result fits `max` characters, marker included, and says how
 * much went. Head and tail are kept because that is where output usually says what happened.
 */
export function cutMiddle(text: string, max: number, options: CutMiddleOptions = {}): string {
  if (text.length <= max) return text
  const note = (cut: number) => `\n…[${cut} chars cut${options.reason ? `: ${options.reason}` : ''}]…\n`
  const room = Math.max(0, max - note(text.length).length)
  const head = text.slice(0, Math.ceil(room * (options.headShare ?? 0.5)))
  const tailLength = room - head.length
  const tail = tailLength > 0 ? text.slice(-tailLength) : ''
  return head + note(text.length - head.length - tail.length) + tail
}

/** Cuts the end of `text` so it fits `max` characters, ending in `…` when cut. */
export function cutEnd(text: string, max: number): string {
  return text.length <= max ? text : `${text.slice(0, Math.max(0, max - 1)).trimEnd()}…`
}

/** One line of at most `max` characters (whitespace runs folded), for titles, tables and menus. */
export function ellipsize(text: string | null | undefined, max: number): string {
  return cutEnd((text ?? '').replace(/\s+/g, ' ').trim(), max)
}

/** Text cutting shared by every part of Cairn that shows or sends a bounded piece of a longer text. */

export interface CutMiddleOptions {
  /** Share of the kept text taken from the head (the rest comes from the tail). Default 0.5. */
  headShare?: number
  /** Words after the count in the marker, e.g. "the result was too long". */
  reason?: string
  /**
   * Chars already dropped from the middle of `text` (at the head share) before it got here, e.g. by a
   * stream buffer that kept only its ends: they count in the marker, which then shows even when `text` fits.
   */
  alreadyCut?: number
}

/**
 * Cuts the middle out of `text` so the result fits `max` characters, marker included, and says how
 * much went. Head and tail are kept because that is where output usually says what happened; a
 * `headShare` of 1 keeps the head only, for previews where the beginning is what matters.
 */
export function cutMiddle(text: string, max: number, options: CutMiddleOptions = {}): string {
  const alreadyCut = options.alreadyCut ?? 0
  if (text.length <= max && alreadyCut <= 0) return text
  const note = (cut: number) => `\n…[${cut.toLocaleString('en-US')} chars cut${options.reason ? `: ${options.reason}` : ''}]…\n`
  const room = Math.min(text.length, Math.max(0, max - note(text.length + alreadyCut).length))
  const head = text.slice(0, Math.ceil(room * (options.headShare ?? 0.5)))
  const tailLength = room - head.length
  const tail = tailLength > 0 ? text.slice(-tailLength) : ''
  return head + note(text.length + alreadyCut - head.length - tail.length) + tail
}

/** Cuts the end of `text` so it fits `max` characters, ending in `…` when cut. */
export function cutEnd(text: string, max: number): string {
  return text.length <= max ? text : `${text.slice(0, Math.max(0, max - 1)).trimEnd()}…`
}

/** One line of at most `max` characters (whitespace runs folded), for titles, tables and menus. */
export function ellipsize(text: string | null | undefined, max: number): string {
  return cutEnd((text ?? '').replace(/\s+/g, ' ').trim(), max)
}

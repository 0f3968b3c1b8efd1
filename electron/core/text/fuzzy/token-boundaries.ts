import type { Span } from './text-map'

/**
 * A match may only start and end where old_string's own tokens do: `x = 1` is not in `max = 10`,
 * `timeout: 5` is not in `timeout: 50`. One rule for code and prose:
 *
 * - A *word character* is a letter, digit, combining mark or connector (`\p{L}\p{N}\p{M}\p{Pc}`,
 *   so `_` and every script's letters and digits). `$`, `-`, `.`, `'` are not: `foo` may be
 *   edited in `foo-bar`, `obj.foo` or `$foo`.
 * - If old_string starts with a word character, the file character before the match must not be
 *   one; if it ends with one, the character after must not be one.
 * - Scripts written without spaces (Han, Hiragana, Katakana, Thai, Lao, Khmer, Myanmar) have no
 *   visible word edges, so each of their characters counts as a token of its own: `第一章` may be
 *   edited inside `標題第一章内容`.
 * - A number goes on across a decimal point: `timeout: 5` is not in `timeout: 5.5`, nor `1` in `0.1`
 *   (a `.` between digits joins them; `step 1.` followed by a space or letter still ends at `1`).
 * - A match never ends just before a combining mark, which would strip the accent or vowel sign
 *   off the match's last character (`cafe` in `café` written with U+0301), in any script.
 */
const WORD = /[\p{L}\p{N}\p{M}\p{Pc}]/u
const UNSPACED_SCRIPT = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Thai}\p{Script=Lao}\p{Script=Khmer}\p{Script=Myanmar}]/u
const MARK = /\p{M}/u
const DIGIT = /\p{Nd}/u

/** The code point that ends just before `offset` (a surrogate pair read as one character). */
function charBefore(text: string, offset: number): string {
  if (offset <= 0) return ''
  const low = text.charCodeAt(offset - 1)
  const pair = offset >= 2 && low >= 0xdc00 && low <= 0xdfff && isHighSurrogate(text.charCodeAt(offset - 2))
  return text.slice(pair ? offset - 2 : offset - 1, offset)
}

function charAt(text: string, offset: number): string {
  if (offset >= text.length) return ''
  return String.fromCodePoint(text.codePointAt(offset)!)
}

function isHighSurrogate(code: number): boolean {
  return code >= 0xd800 && code <= 0xdbff
}

/** True when `inside` (an edge character of the match) and `outside` (its neighbour in the file) are one token. */
function joins(inside: string, outside: string): boolean {
  return WORD.test(inside) && WORD.test(outside) && !UNSPACED_SCRIPT.test(inside) && !UNSPACED_SCRIPT.test(outside)
}

/** Whether `span` of `text`, matched for `pattern`, starts and ends on token boundaries where `pattern` does. */
export function onTokenBoundaries(text: string, pattern: string, span: Span): boolean {
  if (pattern.length === 0) return true
  const first = charAt(pattern, 0)
  const last = charBefore(pattern, pattern.length)
  const before = charBefore(text, span.start)
  const after = charAt(text, span.end)
  if (after !== '' && MARK.test(after)) return false
  if (joins(first, before) || joins(last, after)) return false
  const decimalBefore = before === '.' && DIGIT.test(first) && DIGIT.test(charBefore(text, span.start - 1))
  const decimalAfter = after === '.' && DIGIT.test(last) && DIGIT.test(charAt(text, span.end + 1))
  return !decimalBefore && !decimalAfter
}

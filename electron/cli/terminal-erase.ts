import { stripVTControlCharacters } from 'node:util'

/** Combining marks, format characters (zero-width joiner, variation selectors) and controls take no cell. */
const ZERO_WIDTH = /^[\p{Mn}\p{Me}\p{Cf}\p{Cc}]$/u
/** East Asian wide and fullwidth characters and emoji take two cells. */
const WIDE =
  /^[\p{Emoji_Presentation}\u1100-\u115f\u2e80-\u303e\u3041-\u33ff\u3400-\u4dbf\u4e00-\u9fff\ua000-\ua4cf\uac00-\ud7a3\uf900-\ufaff\ufe30-\ufe4f\uff00-\uff60\uffe0-\uffe6\u{20000}-\u{3fffd}]$/u

/**
 * The escape sequence that erases `text` from a terminal `columns` wide, when it was printed starting at
 * the first column of a line: back to where it started (counting the rows its lines wrapped onto), then
 * clear to the end of the screen. Null when the rows cannot be counted for sure (carriage returns or
 * escape sequences in the text, an unknown width): erasing a row too many would wipe what came before.
 */
export function eraseFromLineStart(text: string, columns: number | undefined): string | null {
  if (!columns || columns < 2 || text.includes('\r') || stripVTControlCharacters(text) !== text) return null
  let rowsDown = 0
  let column = 0
  for (const char of text) {
    if (char === '\n') {
      rowsDown++
      column = 0
    } else if (char === '\t') {
      column = Math.min(columns - 1, (Math.floor(column / 8) + 1) * 8)
    } else {
      const width = ZERO_WIDTH.test(char) ? 0 : WIDE.test(char) ? 2 : 1
      // A character that does not fit moves to the next row; a full row waits for the next character to wrap.
      if (column + width > columns) {
        rowsDown++
        column = 0
      }
      column += width
    }
  }
  return `\r${rowsDown > 0 ? `\x1b[${rowsDown}A` : ''}\x1b[J`
}

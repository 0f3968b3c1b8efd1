/**
 * Text shown for a decision (an approval's command and preview, a label, an MCP tool's name and
 * description, a tool's output line) with every character that could hide or rearrange what is shown
 * written out instead: a carriage return or an ANSI sequence would let the text overwrite itself on a
 * terminal (`ls -la\r; rm -rf ~` shows as `ls -la`), a bidi override reverses what follows, a zero-width
 * character hides a difference. Tabs stay; newlines stay unless `newlines: false`.
 */

// C0 controls but tab and newline, DEL and C1, the soft hyphen, zero-width and joiner characters, bidi
// marks, embeddings, overrides and isolates, word joiner and invisible operators, Hangul and Mongolian
// fillers, variation selectors, interlinear annotation marks, the byte-order mark, tag characters.
const HIDING =
  /[\u0000-\u0008\u000B-\u001F\u007F-\u009F\u00AD\u034F\u061C\u115F\u1160\u17B4\u17B5\u180B-\u180F\u200B-\u200F\u2028\u2029\u202A-\u202E\u2060-\u2064\u2066-\u2069\u3164\uFE00-\uFE0F\uFEFF\uFFA0\uFFF9-\uFFFB\u{E0000}-\u{E007F}\u{E0100}-\u{E01EF}]/gu

const NAMED: Record<string, string> = { '\r': '\\r', '\u000B': '\\v', '\f': '\\f', '\b': '\\b', '\u0000': '\\0' }

function written(char: string): string {
  const named = NAMED[char]
  if (named) return named
  const code = char.codePointAt(0) ?? 0
  if (code < 0x100) return `\\x${code.toString(16).padStart(2, '0')}`
  return code <= 0xffff ? `\\u${code.toString(16).padStart(4, '0')}` : `\\u{${code.toString(16)}}`
}

export function visibleControls(text: string, options: { newlines?: boolean } = {}): string {
  const shown = text.replace(HIDING, written)
  return options.newlines === false ? shown.replace(/\n/g, '\\n') : shown
}

/** Whether `text` holds any character {@link visibleControls} writes out (a reason to look twice). */
export function hasHidingCharacters(text: string): boolean {
  HIDING.lastIndex = 0
  const found = HIDING.test(text)
  HIDING.lastIndex = 0
  return found
}

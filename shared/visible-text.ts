/**
 * Text shown for a decision (an approval's command and preview, a label, an MCP tool's name and
 * description, a tool's output line) with every character that could hide or rearrange what is shown
 * written out instead: a carriage return or an ANSI sequence would let the text overwrite itself on a
 * terminal (`ls -la\r; rm -rf ~` shows as `ls -la`), a bidi override reverses what follows, a zero-width
 * character hides a difference. Tabs stay; newlines stay unless `newlines: false`.
 */

// C0 controls but tab and newline, DEL and C1, zero-width and joiner characters, bidi embeddings,
// overrides and isolates, word joiner and invisible operators, the byte-order mark.
const HIDING = /[\u0000-\u0008\u000B-\u001F\u007F-\u009F\u200B-\u200F\u2028\u2029\u202A-\u202E\u2060-\u2064\u2066-\u2069\uFEFF]/g

const NAMED: Record<string, string> = { '\r': '\\r', '\u000B': '\\v', '\f': '\\f', '\b': '\\b', '\u0000': '\\0' }

function written(char: string): string {
  const named = NAMED[char]
  if (named) return named
  const code = char.charCodeAt(0)
  return code < 0x100 ? `\\x${code.toString(16).padStart(2, '0')}` : `\\u${code.toString(16).padStart(4, '0')}`
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

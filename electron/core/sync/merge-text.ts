import { diff3Merge } from 'node-diff3'

/** A three-way merge of a text file: the merged text, or both versions when the changes overlap. */
export type TextMerge = { clean: true; text: string } | { clean: false; ours: string; theirs: string }

interface LineStyle {
  crlf: boolean
  trailingNewline: boolean
}

function styleOf(text: string): LineStyle {
  const breaks = text.match(/\n/g)?.length ?? 0
  const crlfBreaks = text.match(/\r\n/g)?.length ?? 0
  // A file edited on Windows may mix endings; the majority decides how the merged file is written.
  return { crlf: breaks > 0 && crlfBreaks * 2 > breaks, trailingNewline: text.endsWith('\n') }
}

/** Lines without their endings; the final newline ends the last line rather than starting an empty one. */
function linesOf(text: string): string[] {
  if (text === '') return []
  return text.replace(/\r?\n$/, '').split(/\r?\n/)
}

function joinLines(lines: readonly string[], style: LineStyle): string {
  if (lines.length === 0) return ''
  return lines.join(style.crlf ? '\r\n' : '\n') + (style.trailingNewline ? (style.crlf ? '\r\n' : '\n') : '')
}

/**
 * Line-based three-way merge (diff3) of a file changed on both sides since `base` (`null`: the file was
 * added on both). Changes that do not overlap merge, the same change made on both sides is taken once,
 * and overlapping changes give `clean: false` with both versions: the result never holds conflict
 * markers. When one side left the file as it was, the other side's text is taken exactly; otherwise the
 * merged text is written in ours' line endings and with ours' final newline (or its absence).
 */
export function mergeText(base: string | null, ours: string, theirs: string): TextMerge {
  if (ours === theirs) return { clean: true, text: ours }
  if (base !== null && ours === base) return { clean: true, text: theirs }
  if (base !== null && theirs === base) return { clean: true, text: ours }

  const oursLines = linesOf(ours)
  const theirsLines = linesOf(theirs)
  const regions = diff3Merge(oursLines, linesOf(base ?? ''), theirsLines, { excludeFalseConflicts: true })
  const merged: string[] = []
  for (const region of regions) {
    if (region.conflict) return { clean: false, ours, theirs }
    if (region.ok) merged.push(...region.ok)
  }
  return { clean: true, text: joinLines(merged, styleOf(ours)) }
}

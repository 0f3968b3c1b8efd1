import { readSourceEntries, type SourceEntry } from './memory-merge'

const FENCE = /^\s*(```|~~~)/
const HEADING = /^(#{1,6})(?:\s+(.*?))?\s*#*\s*$/
/** A title naming the file itself (`# MEMORY.md - Long-term memory`) gives an entry no context. */
const FILE_TITLE = /\b(MEMORY|USER|SOUL|AGENTS|TOOLS|IDENTITY|CLAUDE)\.md\b/i
const TOP_LEVEL_ITEM = /^([-*+]|\d{1,9}[.)])\s+/
const RULE = /^\s*([-*_])(\s*\1){2,}\s*$/
const COMMENT_LINE = /^\s*<!--.*-->\s*$/

/**
 * The entries of a free Markdown memory file (OpenClaw's MEMORY.md and USER.md, a CLAUDE.md), each
 * with the line it starts on. A file with `§` separator lines is split like Cairn's own. Otherwise:
 * every top-level list item (with its indented lines, sub-items and indented paragraphs) is one entry, without its bullet;
 * every paragraph is one entry; a fenced code block stays whole inside its entry. The headings above
 * an entry are its context, written before it (`Preferences > Code: tabs, not spaces`, as Hermes's
 * own OpenClaw migration writes them), except a title naming the file; headings, rules and comment
 * lines are not entries themselves. YAML front matter is skipped.
 */
export function splitMarkdownEntries(text: string): SourceEntry[] {
  const lines = text.replace(/\r\n/g, '\n').split('\n')
  if (lines.some((line) => line.trim() === '§')) return readSourceEntries(text)
  const entries: SourceEntry[] = []
  let block: string[] = []
  let blockLine = 0
  const headings: string[] = []
  const flush = (): void => {
    const entry = block.join('\n').replace(TOP_LEVEL_ITEM, '').trim()
    const context = headings.filter(Boolean).join(' > ')
    if (entry) entries.push({ text: context ? `${context}: ${entry}` : entry, line: blockLine })
    block = []
  }
  let index = frontMatterEnd(lines)
  let fenced = false
  for (; index < lines.length; index++) {
    const line = lines[index]
    if (fenced || FENCE.test(line)) {
      if (!block.length) blockLine = index + 1
      block.push(line)
      if (FENCE.test(line)) fenced = !fenced
      continue
    }
    // A list item's indented paragraph after a blank line is still that item.
    if (!line.trim() && TOP_LEVEL_ITEM.test(block[0] ?? '') && /^\s+\S/.test(nextNonBlank(lines, index) ?? '')) {
      block.push('')
      continue
    }
    const heading = HEADING.exec(line)
    if (heading) {
      flush()
      const title = (heading[2] ?? '').trim()
      headings.length = Math.min(headings.length, heading[1].length - 1)
      while (headings.length < heading[1].length - 1) headings.push('')
      headings.push(FILE_TITLE.test(title) ? '' : title)
      continue
    }
    if (!line.trim() || RULE.test(line) || COMMENT_LINE.test(line)) {
      flush()
      continue
    }
    if (TOP_LEVEL_ITEM.test(line)) flush()
    if (!block.length) blockLine = index + 1
    block.push(line)
  }
  flush()
  return entries
}

function nextNonBlank(lines: string[], from: number): string | undefined {
  for (let index = from + 1; index < lines.length; index++) if (lines[index].trim()) return lines[index]
  return undefined
}

/** The index of the first line after a leading `---` … `---` front matter block (0 when there is none). */
function frontMatterEnd(lines: string[]): number {
  if (lines[0]?.trim() !== '---') return 0
  const close = lines.findIndex((line, index) => index > 0 && line.trim() === '---')
  return close === -1 ? 0 : close + 1
}

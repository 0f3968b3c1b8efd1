import { structuredPatch } from 'diff'

export type LineType = 'context' | 'add' | 'del'

export interface DiffLine {
  type: LineType
  text: string
  oldNo: number | null
  newNo: number | null
}

export interface DiffHunk {
  oldStart: number
  newStart: number
  lines: DiffLine[]
}

export interface FileDiff {
  hunks: DiffHunk[]
  added: number
  removed: number
}

export interface SideCell {
  type: LineType | 'empty'
  no: number | null
  text: string
}

export interface SplitRow {
  left: SideCell
  right: SideCell
}

/** Whole-file context, for "show the full file". */
export const FULL_CONTEXT = Number.MAX_SAFE_INTEGER

/** Line diff of two texts (null = the file did not exist), in hunks with `context` unchanged lines around changes. */
export function computeDiff(before: string | null, after: string | null, context = 3): FileDiff {
  const patch = structuredPatch('before', 'after', withNewline(before ?? ''), withNewline(after ?? ''), undefined, undefined, { context })
  let added = 0
  let removed = 0
  const hunks = patch.hunks.map((hunk) => {
    let oldNo = hunk.oldStart
    let newNo = hunk.newStart
    const lines: DiffLine[] = []
    for (const raw of hunk.lines) {
      const sign = raw[0]
      const text = raw.slice(1)
      if (sign === '+') {
        added++
        lines.push({ type: 'add', text, oldNo: null, newNo: newNo++ })
      } else if (sign === '-') {
        removed++
        lines.push({ type: 'del', text, oldNo: oldNo++, newNo: null })
      } else if (sign === ' ') {
        lines.push({ type: 'context', text, oldNo: oldNo++, newNo: newNo++ })
      }
      // "\ No newline at end of file" markers carry no line.
    }
    return { oldStart: hunk.oldStart, newStart: hunk.newStart, lines }
  })
  return { hunks, added, removed }
}

/** Pairs a hunk's lines for side-by-side: a run of removals sits next to the additions that replaced it. */
export function splitRows(hunk: DiffHunk): SplitRow[] {
  const rows: SplitRow[] = []
  const empty: SideCell = { type: 'empty', no: null, text: '' }
  let index = 0
  const lines = hunk.lines
  while (index < lines.length) {
    const line = lines[index]
    if (line.type === 'context') {
      rows.push({ left: { type: 'context', no: line.oldNo, text: line.text }, right: { type: 'context', no: line.newNo, text: line.text } })
      index++
      continue
    }
    const removed: DiffLine[] = []
    const added: DiffLine[] = []
    while (index < lines.length && lines[index].type === 'del') removed.push(lines[index++])
    while (index < lines.length && lines[index].type === 'add') added.push(lines[index++])
    for (let i = 0; i < Math.max(removed.length, added.length); i++) {
      const del = removed[i]
      const add = added[i]
      rows.push({
        left: del ? { type: 'del', no: del.oldNo, text: del.text } : empty,
        right: add ? { type: 'add', no: add.newNo, text: add.text } : empty
      })
    }
  }
  return rows
}

function withNewline(text: string): string {
  return text === '' || text.endsWith('\n') ? text : `${text}\n`
}

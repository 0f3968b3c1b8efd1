import type { LearnedReview } from '../../../../shared/ipc/domain'
import type { ChatItem } from '../../stores/chat-items'
import { placeNotes } from './LearnedNotes'

/** One row of the virtualised list: a conversation row, or a learned note where it happened. */
export type ListRow =
  | { kind: 'item'; key: string; item: ChatItem; index: number; layout: RowLayout }
  | { kind: 'note'; key: string; note: LearnedReview; layout: RowLayout }

/**
 * What the CSS once read from siblings (`.tool-call + .tool-call`, `:has(+ .tool-call)`,
 * `:last-of-type`): each row sits in its own wrapper in a virtualised list, so the row carries it.
 */
export interface RowLayout {
  /** A tool call straight before another: the two sit close. */
  toolBeforeTool: boolean
  /** An answer followed by a tool call of the same turn: its actions wait for the turn's last answer. */
  beforeTool: boolean
  last: boolean
}

export function buildRows(items: ChatItem[], notes: LearnedReview[]): ListRow[] {
  const placed = placeNotes(items, notes)
  type Unplaced = { kind: 'item'; key: string; item: ChatItem; index: number } | { kind: 'note'; key: string; note: LearnedReview }
  const rows: Unplaced[] = []
  const pushNotes = (at: number): void => {
    for (const note of placed.get(at) ?? []) rows.push({ kind: 'note', key: `note:${note.reviewId}`, note })
  }
  pushNotes(-1)
  items.forEach((item, index) => {
    rows.push({ kind: 'item', key: item.key, item, index })
    pushNotes(index)
  })
  return rows.map((row, at) => {
    const kindOf = (other: Unplaced | undefined): string | undefined => (other?.kind === 'item' ? other.item.kind : other?.kind)
    const own = kindOf(row)
    const layout = { toolBeforeTool: own === 'tool' && kindOf(rows[at + 1]) === 'tool', beforeTool: own === 'assistant' && kindOf(rows[at + 1]) === 'tool', last: at === rows.length - 1 }
    return { ...row, layout }
  })
}

/**
 * How many rows came in above the ones shown before (older messages loaded): the list lowers its
 * first index by that much, so what you were reading stays where it was. Looks the first few old
 * rows up, since the boundary row itself can change (a tool call pairing with its now-loaded answer).
 */
export function rowsPrepended(before: ListRow[], after: ListRow[]): number {
  if (!before.length || !after.length) return 0
  const at = new Map(after.map((row, index) => [row.key, index]))
  for (let index = 0; index < Math.min(before.length, 8); index++) {
    const found = at.get(before[index].key)
    if (found !== undefined) return Math.max(0, found - index)
  }
  return 0
}

/** Whether two lists show any of the same rows (none: the newest page replaced a page read far above it). */
export function rowsOverlap(before: ListRow[], after: ListRow[]): boolean {
  const keys = new Set(after.map((row) => row.key))
  return before.some((row) => keys.has(row.key))
}

/** The row that shows message `id` (a search hit), counting messages folded into a compacted row. */
export function rowOfMessage(rows: ListRow[], id: number): number {
  return rows.findIndex((row) => row.kind === 'item' && holds(row.item, id))
}

function holds(item: ChatItem, id: number): boolean {
  if (item.kind === 'compacted') return item.items.some((inner) => holds(inner, id))
  return 'id' in item && item.id === id
}

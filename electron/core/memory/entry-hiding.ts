import type { Ledger } from '../ledger/ledger'
import { memoryHistory } from './entry-history'
import { findEntry, trimmedText } from './entry-ops'
import type { MemoryHidden, VisibilityChange } from './memory-hidden'
import type { MemoryStore } from './memory-store'
import type { MemoryTarget } from './types'

export type HideOutcome =
  | { ok: true; entry: string; hidden: boolean; changed: boolean }
  | { ok: false; code: 'not_found' | 'ambiguous'; error: string; matches?: string[] }

/**
 * Hides ("don't bring this up") or shows again the entry of `target` that `text` names (its full text,
 * or a part only it contains). Showing also takes the exact text of a mark whose entry is gone, so a
 * stale one can be cleared. The entry stays in the file either way; a hide applies from the next
 * conversation, since a running one keeps the memory frozen into its prompt.
 */
export function setEntryHidden(
  source: { memory: Pick<MemoryStore, 'read' | 'archived' | 'project'>; memoryHidden: Pick<MemoryHidden, 'set' | 'list'> },
  target: MemoryTarget,
  text: string,
  hidden: boolean
): HideOutcome {
  const needle = trimmedText(text)
  if (!hidden && source.memoryHidden.list(target).has(needle)) {
    hideArchivedCopy(source.memory, target, needle, false)
    return { ok: true, entry: needle, hidden, changed: source.memoryHidden.set(target, needle, false) }
  }
  const { entries } = source.memory.read(target)
  const match = needle ? findEntry(entries, needle) : { kind: 'none' as const }
  if (match.kind === 'none') return { ok: false, code: 'not_found', error: `No ${target} entry contains "${needle}".` }
  if (match.kind === 'ambiguous') {
    return { ok: false, code: 'ambiguous', error: `"${needle}" is in more than one ${target} entry; give more of the entry's text.`, matches: match.previews }
  }
  const entry = entries[match.index]
  hideArchivedCopy(source.memory, target, entry, hidden)
  return { ok: true, entry, hidden, changed: source.memoryHidden.set(target, entry, hidden) }
}

/** The same words kept in the archive too (an add that overflowed before room was freed) follow the hide, or recall would bring them up. */
function hideArchivedCopy(memory: Pick<MemoryStore, 'archived' | 'project'>, target: MemoryTarget, entry: string, hidden: boolean): void {
  const projectKey = target === 'project' ? (memory.project?.key ?? null) : null
  memory.archived?.setHiddenByText(target, projectKey, entry, hidden)
}

/**
 * When the user hid the entry and brought it up again, newest first, across its versions (a hide made
 * before a replace still shows in the history of the new words).
 */
export function entryVisibilityHistory(
  source: { ledger: Pick<Ledger, 'list'>; memoryHidden: Pick<MemoryHidden, 'changesOf'> },
  target: MemoryTarget,
  entry: string
): VisibilityChange[] {
  const versions = new Set([entry.trim()])
  for (const row of memoryHistory(source.ledger, target, entry)) {
    if (row.before !== null) versions.add(row.before)
    if (row.after !== null) versions.add(row.after)
  }
  return source.memoryHidden.changesOf(target, [...versions])
}

import type { LedgerEntry, WriteContext } from '../../../shared/ledger'
import type { EntryChange } from './entry-ops'
import { charCount } from './memory-file'
import type { MemoryArchive } from './memory-archive'
import type { ArchiveEntry } from './archive-types'
import { archiveMessages } from './archive-messages'

export { archiveMessages }
import type { MemorySuccess, MemoryTarget } from './types'

/** What the memory store needs of the archive: archiving an entry, and (for the tool's search) finding entries. */
export type ArchiveSink = Pick<MemoryArchive, 'add' | 'search' | 'markRecalled' | 'setHidden' | 'setHiddenByText'>

/** Where a store's entries land in the archive: its target, the project of a `project` entry, and which entries the user had hidden. */
export interface ArchiveScope {
  target: MemoryTarget
  projectKey: string | null
  /** Entries hidden when the change began: a hidden entry that leaves the core stays hidden in the archive, so recall never brings it up. */
  hidden?: ReadonlySet<string>
}

/**
 * Entries leaving the core go to the archive, never nowhere: each entry a writer other than the user
 * removed as `retired` (the user's delete is final), the old text of each replace as `superseded`,
 * with the write's context (who, which conversation) and provenance.
 * Runs after the core change is on disk; a failure here leaves the core change and its ledger row
 * (which keeps the text) as they are.
 */
export function archiveRetired(archive: ArchiveSink | undefined, scope: ArchiveScope, recorded: readonly LedgerEntry[], write: WriteContext): void {
  // An undo from the Timeline puts a change back as it was; the Timeline, not the archive, keeps what it took out.
  if (!archive || write.source === 'revert') return
  const { target, projectKey } = scope
  for (const row of recorded) {
    if (row.before === null) continue
    const source = row.kind === 'memory.remove' ? 'retired' : row.kind === 'memory.replace' ? 'superseded' : null
    // The user's own delete means "forget this" (the Memory screen says so): only the Timeline keeps it, to undo.
    if (!source || (source === 'retired' && write.source === 'user')) continue
    const result = archive.add({ target, projectKey, text: row.before, source, provenance: write.provenance, write })
    if (result.kind !== 'refused' && scope.hidden?.has(row.before)) archive.setHidden(result.entry.id, true)
  }
}

/** The result of an add that the full core could not take and the archive did. */
export function overflowSuccess(base: MemorySuccess, result: ReturnType<ArchiveSink['add']>, usage: string): MemorySuccess & { archived: true; archive_id: number } {
  if (result.kind === 'refused') throw new Error('an archive refusal is not a success') // words-ok: a caller bug, never shown
  const id = result.entry.id
  const message = result.kind === 'exists' ? archiveMessages.alreadyArchived(id, dayOf(result.entry)) : archiveMessages.overflow(id, usage)
  return { ...base, message, archived: true, archive_id: id, ...(result.kind === 'exists' ? { duplicate: true as const } : {}) }
}

/**
 * A batch over the limit, made to fit by leaving adds out: its replaces and removes all apply, then each
 * add in order goes to the core while it still fits, and the rest (`left`) to the archive. Null when even
 * without its adds the batch is over the limit (a replace that grew): it fails as before.
 */
export function fitBatch(entries: readonly string[], changes: readonly EntryChange[], limit: number): { entries: string[]; changes: EntryChange[]; left: string[] } | null {
  const added = new Set(changes.filter((change) => change.kind === 'memory.add' && change.after !== null).map((change) => change.after as string))
  const kept = entries.filter((entry) => !added.has(entry))
  if (charCount(kept) > limit) return null
  const fitting = new Set<string>()
  const left: string[] = []
  for (const change of changes) {
    if (change.kind !== 'memory.add' || change.after === null) continue
    const text = change.after
    if (charCount([...kept, ...fitting, text]) <= limit) fitting.add(text)
    else left.push(text)
  }
  return {
    entries: entries.filter((entry) => !added.has(entry) || fitting.has(entry)),
    changes: changes.filter((change) => change.kind !== 'memory.add' || change.after === null || fitting.has(change.after)),
    left
  }
}

function dayOf(entry: ArchiveEntry): string {
  return new Date(entry.addedAt).toISOString().slice(0, 10)
}

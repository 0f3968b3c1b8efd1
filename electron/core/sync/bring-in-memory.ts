import type { WriteContext } from '../../../shared/ledger'
import type { SyncHome } from './sync-home'
import { entryChangesBetween } from '../memory/entry-diff'
import { separatorLineError } from '../memory/entry-ops'
import { charCount, parseEntries } from '../memory/memory-file'
import { scanForThreats, threatMessage } from '../security/threats'
import type { MemoryTarget } from '../memory/types'
import { mergeMemoryEntries, type MemoryMergeResult } from './merge-memory'
import { fileSyncProposal } from './sync-proposals'
import type { SyncConflict } from './types'

export interface MemoryBringIn {
  /** Ledger rows written. */
  received: number
  conflicts: SyncConflict[]
  overflow: number
  /** Entries the store refused (the threat scan, a `§` line), with its reason. */
  refused: string[]
}

/**
 * Merges the other side's version of a memory file into this device's by entry (see
 * mergeMemoryEntries), under the file's lock, and writes the result through the store, so each entry
 * that changes is a ledger row with source `sync`. What conflicts, or no longer fits, is proposed, never
 * dropped. A refused entry (the threat scan) refuses the file's merge; it is reported and the next sync tries again.
 */
export async function bringInMemory(
  core: Pick<SyncHome, 'db' | 'memory'>,
  target: MemoryTarget,
  file: string,
  texts: { base: string | null; theirs: string | null },
  write: WriteContext
): Promise<MemoryBringIn> {
  const outcome: MemoryBringIn = { received: 0, conflicts: [], overflow: 0, refused: [] }
  const base = parseEntries(texts.base ?? '')
  const theirs = parseEntries(texts.theirs ?? '')
  const limit = core.memory.read(target).usage.limit
  const fileName = file.split('/').at(-1)!
  let merged: MemoryMergeResult | null = null
  const result = await core.memory.rewrite(
    target,
    (ours) => {
      // Unchanged here since the last sync: the other side's file as it is, order included, so devices converge.
      if (sameEntries(ours, base) && charCount(theirs) <= limit) {
        merged = { entries: theirs, conflicts: [], overflow: [] }
      } else merged = mergeMemoryEntries({ base, ours: [...ours], theirs, limit })
      // What the store would refuse (the threat scan, a `§` line) stays out alone, reported; the rest merges.
      const kept = merged.entries.filter((entry) => {
        const refused = ours.includes(entry) ? null : (separatorLineError(entry, fileName) ?? threatMessage(scanForThreats(entry, 'strict')))
        if (refused) outcome.refused.push(`an entry from another device was not brought in: ${refused}`)
        return !refused
      })
      outcome.received = entryChangesBetween(ours, kept).length
      return kept
    },
    { write }
  )
  if (!result.success) {
    outcome.received = 0
    outcome.refused = [result.error]
    return outcome
  }
  const meta = { store: target }
  for (const conflict of (merged as MemoryMergeResult | null)?.conflicts ?? []) {
    const proposal =
      conflict.kind === 'changed_both'
        ? { kind: 'memory.replace' as const, before: conflict.ours, after: conflict.theirs }
        : { kind: 'memory.add' as const, before: null, after: conflict.changed }
    const proposalId = fileSyncProposal(core.db, write, { ...proposal, target: file, meta, cause: 'sync_conflict' })
    outcome.conflicts.push({ file, resolution: 'proposal', ...(proposalId === null ? {} : { proposalId }) })
  }
  for (const entry of (merged as MemoryMergeResult | null)?.overflow ?? []) {
    fileSyncProposal(core.db, write, { kind: 'memory.add', target: file, before: null, after: entry, meta, cause: 'sync_overflow' })
    outcome.overflow++
  }
  return outcome
}

function sameEntries(a: readonly string[], b: readonly string[]): boolean {
  return a.length === b.length && a.every((entry, index) => entry === b[index])
}

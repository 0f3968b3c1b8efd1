import type { ImportUndoHome } from './import-home'
import { ProposalStore } from '../ledger/proposals'
import { ImportBatches } from './import-batches'
import { importReviewId } from './types'
import { KeyedError } from '../../../shared/keyed-error'
import type { StateDb } from '../db/state-db'

/** The most ledger rows one batch is expected to hold; a bigger one is undone by running undo again. */
const MAX_ROWS = 100_000

/** A row of the batch that could not be reverted (the entry or file changed since), and why. */
export interface UndoConflict {
  entryId: number
  target: string
  error: string
}

export type UndoResult =
  | {
      ok: true
      importId: number
      /** Ledger rows reverted now (each a `revert` row on the timeline). */
      reverted: number
      conflicts: UndoConflict[]
      sessionsRemoved: number
      /** Imported conversations the user went on with in Cairn since: kept, so nothing they wrote is lost. */
      sessionsKept: number
      /** Inbox proposals of the batch that were still waiting, now withdrawn (superseded). */
      proposalsWithdrawn: number
      /** Every part is undone (no conflicts left): the batch is marked reverted. */
      complete: boolean
    }
  | { ok: false; error: string }

/**
 * Undoes a batch: each of its ledger rows (source `import`) through the ordinary revert, newest first,
 * so supporting files go before their skill; a row whose target changed since is reported and the rest
 * are still reverted. Its conversations are deleted (except those the user continued in Cairn since)
 * and its waiting proposals withdrawn. Running it
 * again after fixing a conflict retries only what is left.
 */
export async function undoImport(core: ImportUndoHome, importId: number): Promise<UndoResult> {
  const batches = new ImportBatches(core.db)
  const batch = batches.get(importId)
  const refusal = undoRefusal(core.db, importId)
  if (!batch || refusal) return { ok: false, error: refusal?.message ?? '' }
  const reviewId = importReviewId(importId)
  const rows = core.ledger.list({ reviewId, sources: ['import'], limit: MAX_ROWS }).filter((row) => row.revertedBy === null)
  const conflicts: UndoConflict[] = []
  let reverted = 0
  for (const row of rows) {
    const result = await core.revert(row.id)
    if (result.ok) reverted++
    else conflicts.push({ entryId: row.id, target: row.target, error: result.error })
  }
  // A conversation with activity after the import is one the user continued here: deleting it would lose their words.
  const importedUntil = batch.finishedAt ?? Date.now()
  const sessionsRemoved = core.db.prepare('DELETE FROM sessions WHERE import_id = ? AND updated_at <= ?').run(importId, importedUntil).changes
  const { kept: sessionsKept } = core.db.prepare('SELECT COUNT(*) AS kept FROM sessions WHERE import_id = ?').get(importId) as { kept: number }
  const proposals = new ProposalStore(core.db)
  let proposalsWithdrawn = 0
  for (const proposal of proposals.list({ states: ['pending'], reviewId, limit: MAX_ROWS })) {
    if (proposals.decide(proposal.id, { state: 'superseded' })) proposalsWithdrawn++
  }
  const complete = conflicts.length === 0
  if (complete) batches.markReverted(importId)
  return { ok: true, importId, reverted, conflicts, sessionsRemoved, sessionsKept, proposalsWithdrawn, complete }
}

/** Why a batch cannot be undone (there is none, or it was undone already) as words for a person; null when it can. */
export function undoRefusal(db: StateDb, importId: number): KeyedError<'import.missing_listed' | 'import.already_undone'> | null {
  const batch = new ImportBatches(db).get(importId)
  if (!batch) return new KeyedError('import.missing_listed', { id: importId })
  if (batch.revertedAt !== null) return new KeyedError('import.already_undone', { id: importId })
  return null
}

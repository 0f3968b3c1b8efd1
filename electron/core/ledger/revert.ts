import { coreEnglish } from '../../../shared/i18n/core-english'
import type { LedgerEntry, RevertResult } from '../../../shared/ledger'
import type { Ledger } from './ledger'

export interface RevertOptions {
  /**
   * The user saw the conflict and confirmed "Revert anyway": a skill change is reverted over the newer
   * text (recorded like any revert, so it can be undone in turn). Memory rows are entry-level, so
   * there is no one entry to write over; they keep refusing with the conflict.
   */
  force?: boolean
}

/** A store that can undo one of its own ledger rows. */
export interface RevertibleStore {
  revertChange(entry: LedgerEntry, options?: RevertOptions): Promise<RevertResult>
}

/**
 * Undoes a learned change: restores the row's `before` text if the target still holds its `after`
 * text, otherwise refuses with a conflict that shows both (a forced skill revert writes over it).
 * The undo is itself a ledger row (source `revert`).
 */
export async function revertLedgerEntry(
  ledger: Ledger,
  stores: { memory: RevertibleStore; skills: RevertibleStore; archive?: RevertibleStore },
  id: number,
  options: RevertOptions = {}
): Promise<RevertResult> {
  const entry = ledger.get(id)
  // `error` is the English of the code's key, for logs and --json; the faces word the code (the CLI with its figures).
  if (!entry) return { ok: false, code: 'not_found', error: coreEnglish('error.revert.not_found', { id }) }
  if (entry.revertedBy !== null) {
    return { ok: false, code: 'already_reverted', error: coreEnglish('error.revert.already_reverted', { id, by: entry.revertedBy }) }
  }
  const store = entry.kind.startsWith('archive.') ? stores.archive : entry.kind.startsWith('memory.') ? stores.memory : stores.skills
  if (!store) return { ok: false, code: 'not_found', error: coreEnglish('error.revert.not_found', { id }) }
  const result = await store.revertChange(entry, { force: options.force })
  if (result.ok) ledger.markReverted(id, result.revertEntry.id)
  else if (result.conflict && !result.code) return { ...result, code: 'conflict' }
  return result
}

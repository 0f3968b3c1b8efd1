import type { LedgerEntry, RevertResult } from '../../../shared/ledger'
import type { Ledger } from './ledger'

/** A store that can undo one of its own ledger rows. */
export interface RevertibleStore {
  revertChange(entry: LedgerEntry): Promise<RevertResult>
}

/**
 * Undoes a learned change: restores the row's `before` text if the target still holds its `after`
 * text, otherwise refuses with a conflict that shows both. The undo is itself a ledger row (source `revert`).
 */
export async function revertLedgerEntry(
  ledger: Ledger,
  stores: { memory: RevertibleStore; skills: RevertibleStore },
  id: number
): Promise<RevertResult> {
  const entry = ledger.get(id)
  if (!entry) return { ok: false, code: 'not_found', error: `There is no timeline entry #${id}.` }
  if (entry.revertedBy !== null) {
    return { ok: false, code: 'already_reverted', error: `Entry #${id} was already reverted by #${entry.revertedBy}.` }
  }
  const store = entry.kind.startsWith('memory.') ? stores.memory : stores.skills
  const result = await store.revertChange(entry)
  if (result.ok) ledger.markReverted(id, result.revertEntry.id)
  else if (result.conflict && !result.code) return { ...result, code: 'conflict' }
  return result
}

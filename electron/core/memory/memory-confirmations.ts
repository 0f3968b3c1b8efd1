import type { StateDb } from '../db/state-db'
import type { MemoryTarget } from './types'

/**
 * When each memory entry was last confirmed (`memory_confirmations` in state.db), by its exact text: a
 * writer (the chat, a review, another agent, the user) tried to add it again, as it is or in other
 * words. Kept outside the files and off the ledger, since a confirmation changes nothing to revert.
 */
export class MemoryConfirmations {
  constructor(private readonly db: StateDb) {}

  confirm(target: MemoryTarget, entry: string, at: number = Date.now()): void {
    this.db
      .prepare(
        `INSERT INTO memory_confirmations (store, entry, confirmed_at) VALUES (?, ?, ?)
         ON CONFLICT (store, entry) DO UPDATE SET confirmed_at = max(confirmed_at, excluded.confirmed_at), times = times + 1`
      )
      .run(target, entry.trim(), at)
  }

  /** The last confirmation of each confirmed entry of one file, in ms since the epoch. */
  list(target: MemoryTarget): Map<string, number> {
    const rows = this.db.prepare('SELECT entry, confirmed_at FROM memory_confirmations WHERE store = ?').all(target) as Array<{ entry: string; confirmed_at: number }>
    return new Map(rows.map((row) => [row.entry, row.confirmed_at]))
  }
}

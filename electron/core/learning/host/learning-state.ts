import type { StateDb } from '../../db/state-db'

/** User turns, across every conversation of the data home, since the last memory write or memory review. */
export const MEMORY_TURNS_KEY = 'memory.turnsSinceWrite'

/**
 * Learning's own counters for a whole data home (the `learning_state` table): small values by key,
 * kept as JSON text. The app, a CLI and a review worker may all use it at once, so a change that
 * depends on the value it read goes through {@link LearningState.update}, one SQLite write
 * transaction with nothing awaited inside it.
 */
export class LearningState {
  constructor(private readonly db: StateDb) {}

  get<T>(key: string, fallback: T): T {
    const row = this.db.prepare('SELECT value FROM learning_state WHERE key = ?').get(key) as { value: string } | undefined
    if (!row) return fallback
    try {
      return JSON.parse(row.value) as T
    } catch {
      return fallback // a value another version wrote in another shape: start again from the fallback
    }
  }

  set(key: string, value: unknown, at = Date.now()): void {
    this.db
      .prepare(
        `INSERT INTO learning_state (key, value, updated_at) VALUES (@key, @value, @at)
         ON CONFLICT(key) DO UPDATE SET value = excluded.value, updated_at = excluded.updated_at`
      )
      .run({ key, value: JSON.stringify(value), at })
  }

  /** A whole number, or 0 (missing, or not a whole number ≥ 0). */
  count(key: string): number {
    const value = this.get<unknown>(key, 0)
    return Number.isInteger(value) && (value as number) >= 0 ? (value as number) : 0
  }

  /**
   * Runs `fn` in one write transaction taken up front (BEGIN IMMEDIATE), so no other process reads
   * or writes state.db in between: what `fn` reads is still true when what it writes lands. `fn`
   * must be synchronous; it may use any store on the same database.
   */
  update<T>(fn: () => T): T {
    return this.db.transaction(fn).immediate()
  }
}

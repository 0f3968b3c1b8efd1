import type { StateDb } from '../db/state-db'
import type { MemoryTarget } from './types'

/** What the memory store needs to leave hidden entries out of what the model reads. */
export interface HiddenEntrySource {
  /** The hidden texts of one file. */
  list(target: MemoryTarget): Set<string>
}

/** One hide or show the user made, for an entry's history. */
export interface VisibilityChange {
  entry: string
  hidden: boolean
  /** ISO time of the decision. */
  at: string
}

/**
 * Memory entries the user asked Cairn not to bring up (`memory_hidden` in state.db), by their exact
 * text: they stay in the file and on the Memory screen, but the prompt, the model's `read`, MCP and
 * recall leave them out. Like a pin, the mark follows its entry through every replace ({@link rename});
 * unlike a pin, it goes with a removed entry ({@link forget}), so the same words added later are not
 * silently hidden. Each hide and show is logged for the entry's history.
 */
export class MemoryHidden implements HiddenEntrySource {
  constructor(private readonly db: StateDb) {}

  isHidden(target: MemoryTarget, entry: string): boolean {
    return this.db.prepare('SELECT 1 FROM memory_hidden WHERE store = ? AND entry = ?').get(target, entry.trim()) !== undefined
  }

  list(target: MemoryTarget): Set<string> {
    return new Set(this.db.prepare('SELECT entry FROM memory_hidden WHERE store = ?').pluck().all(target) as string[])
  }

  /** When each hidden entry of one file was hidden, in ms since the epoch. */
  hiddenSince(target: MemoryTarget): Map<string, number> {
    const rows = this.db.prepare('SELECT entry, hidden_at FROM memory_hidden WHERE store = ?').all(target) as Array<{ entry: string; hidden_at: number }>
    return new Map(rows.map((row) => [row.entry, row.hidden_at]))
  }

  /** Hides or shows an entry; a change is logged, a repeat of the current state is not. Returns whether it changed. */
  set(target: MemoryTarget, entry: string, hidden: boolean, at: number = Date.now()): boolean {
    const text = entry.trim()
    return this.db.transaction(() => {
      const changed = hidden
        ? this.db.prepare('INSERT OR IGNORE INTO memory_hidden (store, entry, hidden_at) VALUES (?, ?, ?)').run(target, text, at).changes > 0
        : this.db.prepare('DELETE FROM memory_hidden WHERE store = ? AND entry = ?').run(target, text).changes > 0
      if (changed) this.db.prepare('INSERT INTO memory_hidden_log (store, entry, hidden, at) VALUES (?, ?, ?, ?)').run(target, text, hidden ? 1 : 0, at)
      return changed
    })()
  }

  /** An entry's text changed (any replace, whoever made it): a hidden entry stays hidden under its new words. */
  rename(target: MemoryTarget, from: string, to: string): void {
    const old = from.trim()
    const next = to.trim()
    if (old === next) return
    this.db
      .prepare('UPDATE OR REPLACE memory_hidden SET entry = ? WHERE store = ? AND entry = ?')
      .run(next, target, old)
  }

  /** An entry was removed from its file: its mark goes with it (the log keeps the history). */
  forget(target: MemoryTarget, entry: string): void {
    this.db.prepare('DELETE FROM memory_hidden WHERE store = ? AND entry = ?').run(target, entry.trim())
  }

  /** The hides and shows of any of `entries` (an entry's versions), newest first. */
  changesOf(target: MemoryTarget, entries: readonly string[]): VisibilityChange[] {
    if (entries.length === 0) return []
    const marks = entries.map(() => '?').join(', ')
    const rows = this.db
      .prepare(`SELECT entry, hidden, at FROM memory_hidden_log WHERE store = ? AND entry IN (${marks}) ORDER BY id DESC`)
      .all(target, ...entries.map((entry) => entry.trim())) as Array<{ entry: string; hidden: number; at: number }>
    return rows.map((row) => ({ entry: row.entry, hidden: row.hidden === 1, at: new Date(row.at).toISOString() }))
  }
}

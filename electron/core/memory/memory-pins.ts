import type { StateDb } from '../db/state-db'
import type { MemoryTarget } from './types'

/**
 * Pinned memory entries (`memory_pins` in state.db), by their exact text: a review never changes or
 * removes a pinned entry without asking; its change becomes a proposal. Kept outside MEMORY.md and
 * USER.md so the files stay plain `§`-separated text. When the user edits a pinned entry, the pin
 * moves with it ({@link rename}).
 */
export class MemoryPins {
  constructor(private readonly db: StateDb) {}

  isPinned(target: MemoryTarget, entry: string): boolean {
    return this.db.prepare('SELECT 1 FROM memory_pins WHERE store = ? AND entry = ?').get(target, entry.trim()) !== undefined
  }

  /** The pinned texts of one file. */
  list(target: MemoryTarget): Set<string> {
    return new Set(this.db.prepare('SELECT entry FROM memory_pins WHERE store = ?').pluck().all(target) as string[])
  }

  set(target: MemoryTarget, entry: string, pinned: boolean): void {
    const text = entry.trim()
    if (pinned) {
      this.db.prepare('INSERT OR IGNORE INTO memory_pins (store, entry, pinned_at) VALUES (?, ?, ?)').run(target, text, Date.now())
    } else {
      this.db.prepare('DELETE FROM memory_pins WHERE store = ? AND entry = ?').run(target, text)
    }
  }

  /** An entry's text changed (a replace the user made or approved): its pin follows it. */
  rename(target: MemoryTarget, from: string, to: string): void {
    const old = from.trim()
    const next = to.trim()
    if (old === next || !this.isPinned(target, old)) return
    this.db.transaction(() => {
      this.db.prepare('DELETE FROM memory_pins WHERE store = ? AND entry = ?').run(target, old)
      this.set(target, next, true)
    })()
  }
}

import { datesForModel, type EntryDates, type EntryDating } from './entry-dating'
import type { SimilarRefusal } from './entry-ops'
import type { EntryDatesForModel, MemoryTarget } from './types'

/**
 * The store's side of entry dates: reads them for the model and records repeats as confirmations.
 * Dates help the model choose what to evict; a state.db that cannot answer right now costs only the
 * dates, never the memory call.
 */
export class StoreDating {
  constructor(readonly source: EntryDating | undefined) {}

  /** When each entry was added and last confirmed; null without dating, or when state.db cannot say right now. */
  datesOf(target: MemoryTarget, entries: readonly string[]): EntryDates[] | null {
    if (!this.source) return null
    if (entries.length === 0) return []
    try {
      return this.source.datesOf(target, entries)
    } catch {
      return null
    }
  }

  /** `{ entry_dates }` beside the entries shown to the model, or nothing. */
  field(target: MemoryTarget, entries: readonly string[]): { entry_dates?: EntryDatesForModel[] } {
    const dates = this.datesOf(target, entries)
    return dates ? { entry_dates: datesForModel(dates) } : {}
  }

  /** Records that a writer saved these existing entries again. */
  confirm(target: MemoryTarget, entries: readonly string[]): void {
    if (!this.source) return
    for (const entry of entries) {
      try {
        this.source.confirm(target, entry)
      } catch {
        // state.db busy or read-only: the write itself already went as it should; only a date is lost.
      }
    }
  }

  /** A near-duplicate confirms the entry it repeats; a contradiction does not. */
  confirmSimilar(target: MemoryTarget, similar: SimilarRefusal | null): void {
    if (similar?.kind === 'near_duplicate') this.confirm(target, [similar.entry])
  }
}

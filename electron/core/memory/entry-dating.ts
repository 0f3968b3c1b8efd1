import type { EntryDatesForModel, MemoryTarget } from './types'

/** When one live entry was first added and last confirmed (ISO times; null when no record says). */
export interface EntryDates {
  text: string
  /** The add that began the entry's chain of rewrites (ledger); null for an entry typed into the file by hand. */
  addedAt: string | null
  /** The latest of: a writer saving it again (as it is or in other words), or a rewrite of it after the add. */
  confirmedAt: string | null
}

/**
 * What the store knows of its entries beyond the file, from state.db: their dates, and where a repeat
 * is recorded as a confirmation. Supplied where the store is composed (cairn.ts); a store without it
 * (a scratch copy, a test) shows and records no dates.
 */
export interface EntryDating {
  datesOf(target: MemoryTarget, entries: readonly string[]): EntryDates[]
  confirm(target: MemoryTarget, entry: string): void
}

const DAY_MS = 24 * 60 * 60 * 1000

function dayWithAge(iso: string | null, now: number): string | null {
  if (!iso) return null
  const at = Date.parse(iso)
  if (Number.isNaN(at)) return null
  const days = Math.max(0, Math.floor((now - at) / DAY_MS))
  const age = days === 0 ? 'today' : days === 1 ? '1 day ago' : `${days} days ago`
  return `${iso.slice(0, 10)} (${age})`
}

/** Ages the model can weigh when it must evict: an early core preference confirmed last week is not stale trivia. */
export function datesForModel(dates: readonly EntryDates[], now: number = Date.now()): EntryDatesForModel[] {
  return dates.map((entry) => ({
    added: dayWithAge(entry.addedAt, now) ?? 'unknown',
    last_confirmed: dayWithAge(entry.confirmedAt, now) ?? 'never'
  }))
}

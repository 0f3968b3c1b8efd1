import { wordSimilarity } from '../text/entry-similarity'
import type { EntryChange } from './entry-ops'

/** A removed and an added entry at least this alike are one edited entry (a replace on the timeline), not a remove and an add. */
const SAME_ENTRY_SIMILARITY = 0.5

/**
 * The entry changes that turn `from` into `to` (order aside): removed entries paired one to one with
 * the most similar added ones become replaces, the rest are removes and adds.
 */
export function entryChangesBetween(from: readonly string[], to: readonly string[]): EntryChange[] {
  const kept = new Set(to)
  const existing = new Set(from)
  const unpaired = new Set(to.filter((entry) => !existing.has(entry)))
  const changes: EntryChange[] = []
  for (const old of from.filter((entry) => !kept.has(entry))) {
    let best: string | null = null
    let bestScore = SAME_ENTRY_SIMILARITY
    for (const candidate of unpaired) {
      const score = wordSimilarity(old, candidate)
      if (score >= bestScore) [best, bestScore] = [candidate, score]
    }
    if (best !== null) unpaired.delete(best)
    changes.push(best === null ? { kind: 'memory.remove', before: old, after: null } : { kind: 'memory.replace', before: old, after: best })
  }
  for (const entry of unpaired) changes.push({ kind: 'memory.add', before: null, after: entry })
  return changes
}

import { charCount } from '../memory/memory-file'
import { isNearDuplicate, wordSimilarity } from '../text/entry-similarity'

export interface MemoryMergeInput {
  /** The entries at the merge base (the last commit both devices had). */
  base: string[]
  /** This device's entries now. */
  ours: string[]
  /** The remote's entries now. */
  theirs: string[]
  /** The store's character limit, counted as {@link charCount} does. */
  limit: number
}

export type MemoryConflict =
  /** One side reworded an entry the other removed: left out of the file, `changed` is proposed back. */
  | { kind: 'changed_removed'; base: string; changed: string; changedBy: 'ours' | 'theirs' }
  /** Both sides reworded an entry differently: ours is kept, theirs is proposed as a replacement. */
  | { kind: 'changed_both'; base: string; ours: string; theirs: string }

export interface MemoryMergeResult {
  entries: string[]
  /** Base entries in base order. */
  conflicts: MemoryConflict[]
  /** Added entries that did not fit under the limit, whole: proposed as a consolidation, never cut. */
  overflow: string[]
}

/**
 * A base entry gone from a side, and an entry new on that side, are one entry reworded when their word
 * sets share at least half their union (Jaccard). A rewording keeps most words ("User prefers dark mode
 * in VS Code" → "User prefers light mode in VS Code now" is 0.67), while two different facts seldom share
 * half their words; below it the pair reads as a removal and an unrelated addition, which loses nothing.
 */
export const CHANGED_ENTRY_SIMILARITY = 0.5

type Fate = { kind: 'kept' } | { kind: 'removed' } | { kind: 'changed'; text: string }

interface SideDiff {
  entries: string[]
  has: Set<string>
  /** What became of each base entry on this side. */
  fate: Map<string, Fate>
  /** The base entry a new text rewords. */
  changedFrom: Map<string, string>
  additions: string[]
}

function unique(entries: readonly string[]): string[] {
  return [...new Set(entries)]
}

/** Pairs removed base entries with new entries, best similarity first, one to one. */
function diffSide(base: readonly string[], side: readonly string[]): SideDiff {
  const entries = unique(side)
  const has = new Set(entries)
  const inBase = new Set(base)
  const removed = base.filter((entry) => !has.has(entry))
  const added = entries.filter((entry) => !inBase.has(entry))
  const pairs: { removed: number; added: number; similarity: number }[] = []
  removed.forEach((old, r) =>
    added.forEach((text, a) => {
      const similarity = wordSimilarity(old, text)
      if (similarity >= CHANGED_ENTRY_SIMILARITY) pairs.push({ removed: r, added: a, similarity })
    })
  )
  pairs.sort((x, y) => y.similarity - x.similarity || x.removed - y.removed || x.added - y.added)
  const fate = new Map<string, Fate>(base.map((entry) => [entry, has.has(entry) ? { kind: 'kept' } : { kind: 'removed' }]))
  const changedFrom = new Map<string, string>()
  const pairedAdded = new Set<number>()
  for (const pair of pairs) {
    const old = removed[pair.removed]
    if (fate.get(old)?.kind !== 'removed' || pairedAdded.has(pair.added)) continue
    pairedAdded.add(pair.added)
    fate.set(old, { kind: 'changed', text: added[pair.added] })
    changedFrom.set(added[pair.added], old)
  }
  return { entries, has, fate, changedFrom, additions: added.filter((_, a) => !pairedAdded.has(a)) }
}

/** Of two near duplicates (additions, or rewordings of one entry), the one kept: the longer (it says more), then the first by code units, so either merge order keeps the same. */
function preferredFirst(a: string, b: string): number {
  return b.length - a.length || (a < b ? -1 : a > b ? 1 : 0)
}

interface Settled {
  /** Ours' order: the settled text of each base entry, and where each of ours' additions sits. */
  slots: (string | { addition: string })[]
  conflicts: { at: number; conflict: MemoryConflict }[]
}

/** Base entries as both sides left them, in ours' order with ours' additions in place. */
function settle(base: readonly string[], ours: SideDiff, theirs: SideDiff): Settled {
  const slots: Settled['slots'] = []
  const conflicts: Settled['conflicts'] = []
  const at = (entry: string): number => base.indexOf(entry)
  for (const entry of ours.entries) {
    const reworded = ours.changedFrom.get(entry)
    if (ours.fate.has(entry)) {
      const other = theirs.fate.get(entry)
      if (other?.kind === 'kept') slots.push(entry)
      else if (other?.kind === 'changed') slots.push(other.text)
    } else if (reworded !== undefined) {
      const other = theirs.fate.get(reworded)
      if (other?.kind === 'removed') {
        conflicts.push({ at: at(reworded), conflict: { kind: 'changed_removed', base: reworded, changed: entry, changedBy: 'ours' } })
        continue
      }
      if (other?.kind !== 'changed' || other.text === entry) slots.push(entry)
      else if (isNearDuplicate(entry, other.text)) slots.push(preferredFirst(entry, other.text) <= 0 ? entry : other.text)
      else {
        slots.push(entry)
        conflicts.push({ at: at(reworded), conflict: { kind: 'changed_both', base: reworded, ours: entry, theirs: other.text } })
      }
    } else slots.push({ addition: entry })
  }
  for (const [entry, fate] of theirs.fate) {
    if (fate.kind === 'changed' && ours.fate.get(entry)?.kind === 'removed') {
      conflicts.push({ at: at(entry), conflict: { kind: 'changed_removed', base: entry, changed: fate.text, changedBy: 'theirs' } })
    }
  }
  return { slots, conflicts }
}

/**
 * The additions kept. Exact repeats are kept once. Two near duplicates that no single side holds together
 * were written independently on two devices: one is kept (a base entry over an addition, else
 * {@link preferredFirst}). Near duplicates one side already holds side by side were kept apart on purpose
 * there, so the merge keeps both; that is also what makes merging a side with itself give it back.
 */
function acceptAdditions(settled: readonly string[], proposed: readonly string[], ours: SideDiff, theirs: SideDiff): Set<string> {
  const accepted = new Set(settled)
  // The proposed replacement of a `changed_both` counts as present (an addition repeating it lives on in the
  // proposal), so swapping the sides, which swaps kept and proposed, keeps the same additions.
  const present = [...accepted, ...proposed]
  const heldTogether = (a: string, b: string): boolean => (ours.has.has(a) && ours.has.has(b)) || (theirs.has.has(a) && theirs.has.has(b))
  const candidates = unique([...ours.additions, ...theirs.additions]).sort(preferredFirst)
  const kept = new Set<string>()
  for (const candidate of candidates) {
    if (accepted.has(candidate)) continue
    if (present.some((entry) => !heldTogether(candidate, entry) && isNearDuplicate(candidate, entry))) continue
    kept.add(candidate)
    present.push(candidate)
  }
  return kept
}

/**
 * Merges a memory store changed on two devices since `base`, entry by entry (an entry is its text).
 * Kept entries stay, removed ones go, a rewording on one side is taken in place, the same rewording on
 * both (or two that are near duplicates) is taken once; differing rewordings keep ours and propose theirs,
 * a rewording of an entry the other side removed is proposed back. Additions from both sides are kept (ours in place, then theirs in theirs'
 * order), near duplicates once. Over `limit`, additions move to `overflow` from the last (theirs', then
 * ours'); if the entries are still over (rewordings grew), they are returned as they are for the store to refuse.
 */
export function mergeMemoryEntries(input: MemoryMergeInput): MemoryMergeResult {
  const base = unique(input.base)
  const same = (a: readonly string[], b: readonly string[]): boolean => a.length === b.length && a.every((entry, i) => entry === b[i])
  const [oursList, theirsList] = [unique(input.ours), unique(input.theirs)]
  // One side untouched: the other side is the result as it stands, order included.
  for (const whole of [same(oursList, base) && theirsList, same(theirsList, base) && oursList, same(oursList, theirsList) && oursList]) {
    if (whole && charCount(whole) <= input.limit) return { entries: whole, conflicts: [], overflow: [] }
  }

  const ours = diffSide(base, oursList)
  const theirs = diffSide(base, theirsList)
  const { slots, conflicts } = settle(base, ours, theirs)
  const settledEntries = unique(slots.filter((slot): slot is string => typeof slot === 'string'))
  const proposed = conflicts.flatMap(({ conflict }) => (conflict.kind === 'changed_both' ? [conflict.theirs] : []))
  const kept = acceptAdditions(settledEntries, proposed, ours, theirs)

  const entries: string[] = []
  const seen = new Set<string>()
  const oursAdditions: string[] = []
  const theirsAdditions: string[] = []
  const place = (entry: string, additions?: string[]): void => {
    if (seen.has(entry)) return
    seen.add(entry)
    entries.push(entry)
    additions?.push(entry)
  }
  for (const slot of slots) {
    if (typeof slot === 'string') place(slot)
    else if (kept.has(slot.addition)) place(slot.addition, oursAdditions)
  }
  for (const addition of theirs.additions) if (kept.has(addition)) place(addition, theirsAdditions)

  const overflow: string[] = []
  for (const additions of [theirsAdditions, oursAdditions]) {
    while (charCount(entries) > input.limit && additions.length > 0) {
      const last = additions.pop() as string
      entries.splice(entries.lastIndexOf(last), 1)
      overflow.unshift(last)
    }
  }
  conflicts.sort((x, y) => x.at - y.at)
  return { entries, conflicts: conflicts.map(({ conflict }) => conflict), overflow }
}

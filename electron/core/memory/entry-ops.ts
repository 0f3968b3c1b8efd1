import { separatorLineNumber } from './memory-file'
import { messages } from './messages'
import { addsNothingTo, findSimilarEntry, type SimilarEntry } from './similar-entries'
import type { MemoryOperation } from './types'

/** One entry-level change; the store records one ledger row for each. */
export interface EntryChange {
  kind: 'memory.add' | 'memory.replace' | 'memory.remove'
  before: string | null
  after: string | null
}

export type EntryMatch =
  | { kind: 'none' }
  | { kind: 'ambiguous'; previews: string[] }
  | { kind: 'found'; index: number }

/**
 * Finds the entry `oldText` names. An entry equal to it wins, so the full text of "Uses pnpm" picks that
 * entry even when "Uses pnpm for monorepos" also contains it (the app edits entries by their full text).
 * Otherwise it is the entry containing `oldText`, as in Hermes: several identical entries count as one
 * (the first is used); several different ones are ambiguous and reported as previews so the model can be
 * more specific. Callers pass trimmed text; entries are trimmed when parsed.
 */
export function findEntry(entries: readonly string[], oldText: string): EntryMatch {
  const exact = entries.indexOf(oldText)
  if (exact !== -1) return { kind: 'found', index: exact }
  const indexes = entries.flatMap((entry, index) => (entry.includes(oldText) ? [index] : []))
  if (indexes.length === 0) return { kind: 'none' }
  const distinct = new Set(indexes.map((index) => entries[index]))
  if (distinct.size > 1) return { kind: 'ambiguous', previews: previews([...distinct]) }
  return { kind: 'found', index: indexes[0] }
}

/** One-line previews, cut at `width` code points with `...`. */
export function previews(entries: readonly string[], width = 80): string[] {
  return entries.map((entry) => {
    const chars = Array.from(entry)
    return chars.length > width ? chars.slice(0, width).join('') + '...' : entry
  })
}

export function dedupeEntries(entries: readonly string[]): string[] {
  return [...new Set(entries)]
}

export function trimmedText(value: unknown): string {
  return typeof value === 'string' ? value.trim() : ''
}

/** Why `text` cannot be an entry of `fileName` because it holds a separator line; null when it does not. */
export function separatorLineError(text: string, fileName: string): string | null {
  const line = separatorLineNumber(text)
  if (line === null) return null
  return (
    `Refused: this entry has a line holding only '§' (line ${line}). ${fileName} separates entries with such lines, ` +
    'so it would be saved as separate entries and the change could not be reverted. Nothing was saved. ' +
    "Save each fact as its own entry (an operations list adds several in one call), or keep the § inside a line of text (e.g. 'see § 3')."
  )
}

/** An add refused beside an existing entry (see similar-entries.ts): that entry, and the content it was refused for. */
export interface SimilarRefusal extends SimilarEntry {
  content: string
}

export type BatchPlan =
  | {
      ok: true
      entries: string[]
      changes: EntryChange[]
      /** Existing entries an add repeated word for word (skipped): each counts as confirmed. */
      repeated: string[]
      /** Adds that said an existing entry again in other words (skipped, not failing the batch): each confirms it. */
      restated: SimilarRefusal[]
    }
  | { ok: false; error: string; similar?: SimilarRefusal }

export interface BatchPlanOptions {
  /** Let adds through beside entries that say nearly the same or the opposite (see MemoryMutationOptions). */
  allowSimilar?: boolean
}

/**
 * Applies a batch to a copy of the entries. Any bad operation fails the whole batch (the caller
 * writes nothing); an add of an entry that already exists is skipped, not an error, and so is one that
 * says an entry that outlives the batch again in other words and adds nothing to it (it loses nothing; failing the
 * batch for it lost the other facts a one-call-per-response model put beside it). An add that
 * contradicts such an entry fails the batch: which of the two holds is the model's call, so a batch
 * that replaces or removes that entry and adds the new text (in either order) passes as one call.
 * `fileName` names the file in errors.
 */
export function planBatch(
  entries: readonly string[],
  operations: readonly MemoryOperation[],
  fileName: string,
  options: BatchPlanOptions = {}
): BatchPlan {
  const working = [...entries]
  const changes: EntryChange[] = []
  const repeated: string[] = []
  const added: Array<{ index: number; action: unknown; content: string }> = []
  for (const [i, raw] of operations.entries()) {
    const op: MemoryOperation = raw && typeof raw === 'object' ? raw : {}
    const content = trimmedText(op.content)
    const oldText = trimmedText(op.old_text)
    const fail = (reason: string): BatchPlan => ({
      ok: false,
      error: `${messages.batchPrefix(i + 1, op.action)}: ${reason}`
    })

    const separator = op.action === 'add' || op.action === 'replace' ? separatorLineError(content, fileName) : null
    if (separator) return fail(separator)

    if (op.action === 'add') {
      if (!content) return fail(messages.batchContentRequired)
      if (working.includes(content)) {
        if (entries.includes(content)) repeated.push(content)
        continue
      }
      working.push(content)
      added.push({ index: i, action: op.action, content })
      changes.push({ kind: 'memory.add', before: null, after: content })
    } else if (op.action === 'replace' || op.action === 'remove') {
      if (!oldText) return fail(messages.batchOldTextRequired)
      if (op.action === 'replace' && !content) return fail(messages.batchReplaceContentRequired)
      const match = findEntry(working, oldText)
      if (match.kind === 'none') return fail(messages.batchNoMatch(oldText))
      if (match.kind === 'ambiguous') return fail(messages.batchMultiple(oldText))
      const before = working[match.index]
      if (op.action === 'remove') {
        working.splice(match.index, 1)
        changes.push({ kind: 'memory.remove', before, after: null })
      } else if (before !== content) {
        working[match.index] = content
        changes.push({ kind: 'memory.replace', before, after: content })
      }
    } else {
      return fail(messages.batchUnknownAction)
    }
  }
  let final = dedupeEntries(working)
  let kept = changes
  const restated: SimilarRefusal[] = []
  if (!options.allowSimilar) {
    const survivors = final.filter((entry) => entries.includes(entry))
    for (const add of added) {
      if (!final.includes(add.content)) continue // replaced again later in the batch
      const similar = findSimilarEntry(survivors, add.content)
      // Skipped only when it adds nothing: a restatement carrying a detail ("…and the terminal") needs a replace.
      if (similar?.kind === 'near_duplicate' && addsNothingTo(similar.entry, add.content)) {
        restated.push({ ...similar, content: add.content })
        continue
      }
      if (similar) {
        return {
          ok: false,
          error: `${messages.batchPrefix(add.index + 1, add.action)}: ${messages.similarEntry(similar.kind, similar.entry)}`,
          similar: { ...similar, content: add.content }
        }
      }
    }
    if (restated.length) {
      const skipped = new Set(restated.map((add) => add.content))
      final = final.filter((entry) => !skipped.has(entry))
      kept = changes.filter((change) => !(change.kind === 'memory.add' && change.after !== null && skipped.has(change.after)))
    }
  }
  return { ok: true, entries: final, changes: kept, repeated, restated }
}

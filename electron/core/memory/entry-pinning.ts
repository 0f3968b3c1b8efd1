import type { WriteContext } from '../../../shared/ledger'
import type { Ledger } from '../ledger/ledger'
import { capturingRows } from './entry-history'
import { findEntry, trimmedText } from './entry-ops'
import type { MemoryPins } from './memory-pins'
import type { MemoryStore } from './memory-store'
import type { MemoryMutationOptions, MemoryResult, MemoryTarget } from './types'

export type PinOutcome =
  | { ok: true; entry: string; pinned: boolean }
  | { ok: false; code: 'not_found' | 'ambiguous'; error: string; matches?: string[] }

/**
 * Pins or unpins the entry of `target` that `text` names (its full text, or a part only it contains).
 * Unpinning also takes the exact text of a pin whose entry is gone, so a stale pin can be cleared.
 */
export function setEntryPinned(
  source: { memory: Pick<MemoryStore, 'read'>; memoryPins: Pick<MemoryPins, 'set' | 'list'> },
  target: MemoryTarget,
  text: string,
  pinned: boolean
): PinOutcome {
  const needle = trimmedText(text)
  const { entries } = source.memory.read(target)
  if (!pinned && source.memoryPins.list(target).has(needle)) {
    source.memoryPins.set(target, needle, false)
    return { ok: true, entry: needle, pinned }
  }
  const match = needle ? findEntry(entries, needle) : { kind: 'none' as const }
  if (match.kind === 'none') return { ok: false, code: 'not_found', error: `No ${target} entry contains "${needle}".` }
  if (match.kind === 'ambiguous') {
    return {
      ok: false,
      code: 'ambiguous',
      error: `"${needle}" is in more than one ${target} entry; give more of the entry's text.`,
      matches: match.previews
    }
  }
  const entry = entries[match.index]
  source.memoryPins.set(target, entry, pinned)
  return { ok: true, entry, pinned }
}

/**
 * The user's replace of an entry (the Memory screen): the store's replace, and when the entry was
 * pinned the pin moves to the new text (the ledger row says exactly which entry changed into what).
 */
export async function replaceEntryKeepingPin(
  source: { memory: Pick<MemoryStore, 'replace'>; memoryPins: Pick<MemoryPins, 'rename'>; ledger: Pick<Ledger, 'onRecord'> },
  target: MemoryTarget,
  oldText: string,
  content: string,
  write: WriteContext,
  options: MemoryMutationOptions = {}
): Promise<MemoryResult> {
  const { result, rows } = await capturingRows(source.ledger, target, () => source.memory.replace(target, oldText, content, { write }, options), write.source)
  for (const row of rows) {
    if (row.kind === 'memory.replace' && row.before !== null && row.after !== null) source.memoryPins.rename(target, row.before, row.after)
  }
  return result
}

import type { LedgerEntry, RevertResult } from '../../../shared/ledger'
import { scanForThreats, threatMessage } from '../security/threats'
import { separatorLineError, type EntryChange } from './entry-ops'
import type { MemoryFiles, PlanOutcome } from './memory-files'
import { charCount, joinEntries } from './memory-file'
import { formatCount, messages } from './messages'
import { refusal } from '../ledger/refusal'

type RevertFailure = Extract<RevertResult, { ok: false }>

/**
 * Undoes one memory ledger row at entry level: an add is removed, a replace is swapped back, a
 * remove is re-added (at the end). It refuses with a conflict when the file no longer holds the row's
 * `after` (or already holds a removed entry again), and records its own row with source `revert`.
 */
export async function revertMemoryChange(files: MemoryFiles, entry: LedgerEntry): Promise<RevertResult> {
  const target = files.targetOfLedgerPath(entry.target)
  if (!target || !entry.kind.startsWith('memory.')) {
    return refusal('revert.not_memory', { id: entry.id, kind: entry.kind, target: entry.target })
  }
  const fileName = files.fileNameOf(target)
  const limit = files.limitOf(target)
  const missingText = (field: 'before' | 'after'): RevertResult => refusal('revert.memory_no_text', { id: entry.id, field, file: fileName })
  if ((entry.kind === 'memory.add' || entry.kind === 'memory.replace') && entry.after === null) return missingText('after')
  if ((entry.kind === 'memory.remove' || entry.kind === 'memory.replace') && entry.before === null) return missingText('before')

  // Restored text goes back into the prompt, so it passes the same scan as any other write; and an
  // old row whose text holds a separator line would come back split, so it is refused like a write.
  if (entry.kind !== 'memory.add' && entry.before !== null) {
    const blocked = threatMessage(scanForThreats(entry.before, 'strict'))
    if (blocked) return refusal('revert.memory_unsafe', { id: entry.id, why: blocked })
    const split = separatorLineError(entry.before, fileName)
    if (split) return refusal('revert.memory_split', { id: entry.id, why: split, file: fileName })
  }

  const conflict = (entries: readonly string[], why: 'revert.memory_holds_removed' | 'revert.memory_entry_changed'): PlanOutcome<RevertFailure> => ({
    kind: 'fail',
    failure: { ...refusal(why, { id: entry.id, file: fileName }), conflict: { expected: entry.after, actual: joinEntries(entries) } }
  })
  const overLimit = (next: readonly string[]): PlanOutcome<RevertFailure> | null => {
    const total = charCount(next)
    if (total <= limit) return null
    return {
      kind: 'fail',
      failure: refusal('revert.memory_over_limit', { id: entry.id, file: fileName, total: formatCount(total), limit: formatCount(limit) })
    }
  }

  const plan = (entries: string[]): PlanOutcome<RevertFailure> => {
    if (entry.kind === 'memory.remove') {
      const restored = entry.before as string
      if (entries.includes(restored)) return conflict(entries, 'revert.memory_holds_removed')
      const next = [...entries, restored]
      return overLimit(next) ?? apply(next, { kind: 'memory.add', before: null, after: restored })
    }
    const current = entry.after as string
    const index = entries.indexOf(current)
    if (index === -1) return conflict(entries, 'revert.memory_entry_changed')
    if (entry.kind === 'memory.add') {
      return apply(entries.filter((_, i) => i !== index), { kind: 'memory.remove', before: current, after: null })
    }
    const restored = entry.before as string
    const next = entries.map((text, i) => (i === index ? restored : text))
    return overLimit(next) ?? apply(next, { kind: 'memory.replace', before: current, after: restored })
  }

  const outcome = await files.transact(
    target,
    // Re-adding never rewrites foreign text away; removing or swapping an entry could, so those check drift.
    { guardDrift: entry.kind !== 'memory.remove', write: { source: 'revert' }, meta: { revertOf: entry.id } },
    plan
  )
  switch (outcome.kind) {
    case 'applied':
      return { ok: true, revertEntry: outcome.recorded[0] }
    case 'noop':
      return refusal('revert.memory_no_change', { id: entry.id, file: fileName })
    case 'fail':
      return outcome.failure
    case 'drift':
      return { ok: false, error: `${messages.drift(fileName, outcome.backup)} ${messages.driftRemediation}` }
    case 'error':
      return { ok: false, error: outcome.message }
  }
}

function apply(entries: string[], change: EntryChange): PlanOutcome<RevertFailure> {
  return { kind: 'apply', entries, changes: [change] }
}

import type { LedgerEntry, RevertResult } from '../../../shared/ledger'
import { scanForThreats, threatMessage } from '../security/threats'
import { separatorLineError, type EntryChange } from './entry-ops'
import type { MemoryFiles, PlanOutcome } from './memory-files'
import { charCount, joinEntries } from './memory-file'
import { formatCount, messages } from './messages'

type RevertFailure = Extract<RevertResult, { ok: false }>

/**
 * Undoes one memory ledger row at entry level: an add is removed, a replace is swapped back, a
 * remove is re-added (at the end). It refuses with a conflict when the file no longer holds the row's
 * `after` (or already holds a removed entry again), and records its own row with source `revert`.
 */
export async function revertMemoryChange(files: MemoryFiles, entry: LedgerEntry): Promise<RevertResult> {
  const target = files.targetOfLedgerPath(entry.target)
  if (!target || !entry.kind.startsWith('memory.')) {
    return { ok: false, error: `Entry #${entry.id} (${entry.kind} on ${entry.target}) is not a memory change; the memory store cannot revert it.` }
  }
  const fileName = files.fileNameOf(target)
  const limit = files.limitOf(target)
  const missingText = (field: 'before' | 'after'): RevertResult => ({
    ok: false,
    error: `Entry #${entry.id} has no '${field}' text, so there is nothing to restore. Edit ${fileName} by hand instead.`
  })
  if ((entry.kind === 'memory.add' || entry.kind === 'memory.replace') && entry.after === null) return missingText('after')
  if ((entry.kind === 'memory.remove' || entry.kind === 'memory.replace') && entry.before === null) return missingText('before')

  // Restored text goes back into the prompt, so it passes the same scan as any other write; and an
  // old row whose text holds a separator line would come back split, so it is refused like a write.
  if (entry.kind !== 'memory.add' && entry.before !== null) {
    const blocked = threatMessage(scanForThreats(entry.before, 'strict'))
    if (blocked) return { ok: false, error: `Entry #${entry.id} cannot be reverted: the text it would restore is unsafe. ${blocked}` }
    const split = separatorLineError(entry.before, fileName)
    if (split) return { ok: false, error: `Entry #${entry.id} cannot be reverted: ${split} Edit ${fileName} by hand instead.` }
  }

  const conflict = (entries: readonly string[], why: string): PlanOutcome<RevertFailure> => ({
    kind: 'fail',
    failure: {
      ok: false,
      error: `Cannot revert entry #${entry.id}: ${why} Nothing was changed.`,
      conflict: { expected: entry.after, actual: joinEntries(entries) }
    }
  })
  const overLimit = (next: readonly string[]): PlanOutcome<RevertFailure> | null => {
    const total = charCount(next)
    if (total <= limit) return null
    return {
      kind: 'fail',
      failure: {
        ok: false,
        error: `Cannot revert entry #${entry.id}: ${fileName} would hold ${formatCount(total)}/${formatCount(limit)} chars, over its limit. Remove or shorten other entries first, then revert again. Nothing was changed.`
      }
    }
  }

  const plan = (entries: string[]): PlanOutcome<RevertFailure> => {
    if (entry.kind === 'memory.remove') {
      const restored = entry.before as string
      if (entries.includes(restored)) return conflict(entries, `${fileName} already holds the removed entry again.`)
      const next = [...entries, restored]
      return overLimit(next) ?? apply(next, { kind: 'memory.add', before: null, after: restored })
    }
    const current = entry.after as string
    const index = entries.indexOf(current)
    if (index === -1) return conflict(entries, `${fileName} no longer holds the entry this change wrote (it was edited or removed since).`)
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
      return { ok: false, error: `Entry #${entry.id} needs no revert: ${fileName} is already in that state.` }
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

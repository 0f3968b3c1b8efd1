import type { LearnedChange, WriteContext } from '../../../shared/ledger'
import { StaleWriteError } from '../fs/atomic'
import { LockLostError } from '../fs/lock'
import { abortQuietly, beginChanges } from '../ledger/recorder'
import { fail, type SkillFailure, type SkillWriteDeps } from './skill-write-support'

/**
 * A write context that also asks for extra `meta` on the change's ledger rows (an approved Inbox
 * proposal's id). Passed wherever a WriteContext goes; the skill actions hand it through unchanged.
 */
export type LedgerMetaWriteContext = WriteContext & { ledgerMeta?: Record<string, unknown> }

export interface RecordedChange {
  name: string
  changes: LearnedChange[]
  write: WriteContext
  /** The disk change. It must refuse (throw) from a lost lock or a stale read right before it lands. */
  apply: () => Promise<void> | void
  /** Puts the disk back after `apply` succeeded but the rows could not be committed. */
  undo: () => Promise<void> | void
  /** Removes what was prepared for `apply` (new folders) when it never landed. */
  cleanup?: () => Promise<void> | void
  /** Bookkeeping that belongs to the change (usage counts), run just before the rows are committed. */
  beforeCommit?: () => void
}

/**
 * One skill change and its ledger rows as a unit: the rows are written pending, then the disk changes,
 * then the rows are committed. A kill in between leaves pending rows that the next start reconciles
 * against the files; a failed commit undoes the disk change. A write refused because this process lost
 * the skill's lock while paused, or because the file changed since it was read, is a failure the tool
 * returns (nothing was written); other errors propagate after the disk is put back.
 */
export async function applyRecorded(deps: SkillWriteDeps, change: RecordedChange): Promise<SkillFailure | null> {
  const extra = (change.write as LedgerMetaWriteContext).ledgerMeta
  const changes = extra ? change.changes.map((row) => ({ ...row, meta: { ...row.meta, ...extra } }) as LearnedChange) : change.changes
  let pending
  try {
    pending = beginChanges(deps.recorder, changes, change.write)
  } catch (error) {
    await change.cleanup?.()
    throw error
  }
  try {
    await change.apply()
  } catch (error) {
    abortQuietly(pending)
    await change.cleanup?.()
    if (error instanceof LockLostError) {
      return fail(`Another process took over the lock on skill '${change.name}' while this write was paused; nothing was written. Try again.`)
    }
    if (error instanceof StaleWriteError) {
      return fail(`Skill '${change.name}' changed on disk while this write was being prepared; nothing was written. Call skill_view to read it again, then retry.`)
    }
    throw error
  }
  try {
    change.beforeCommit?.()
    pending.commit()
  } catch (error) {
    await change.undo()
    abortQuietly(pending)
    throw error
  }
  return null
}

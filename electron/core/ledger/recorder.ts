import type { LearnedChange, LedgerEntry, WriteContext } from '../../../shared/ledger'

/** What every store writes its changes through. The ledger is the only implementation outside tests. */
export interface ChangeRecorder {
  record(change: LearnedChange, ctx: WriteContext): LedgerEntry
}

/** A recorder that can store several rows as one unit: all of them, or (when it throws) none. */
export interface BatchChangeRecorder extends ChangeRecorder {
  recordAll(changes: readonly LearnedChange[], ctx: WriteContext): LedgerEntry[]
}

/**
 * Rows written before their change reaches the disk. A store calls {@link commit} once the file is in
 * place, or {@link abort} if it never got there; a process killed in between leaves the rows pending,
 * and the next start reconciles them against the files (see ledger/reconcile.ts).
 */
export interface PendingChanges {
  /** Makes the rows visible on the timeline; throws if they could not be committed (the store undoes its change). */
  commit(): LedgerEntry[]
  /** Drops the rows (the change did not happen). Best effort: a row left pending is reconciled at the next start. */
  abort(): void
}

/** A recorder that writes rows pending first (the ledger). */
export interface PendingRecorder {
  begin(changes: readonly LearnedChange[], ctx: WriteContext): PendingChanges
}

/**
 * Starts a change's rows: pending rows when the recorder supports them, otherwise (a stand-in in tests)
 * rows recorded at {@link PendingChanges.commit}, after the change, as plain recorders always did.
 */
export function beginChanges(recorder: ChangeRecorder, changes: readonly LearnedChange[], ctx: WriteContext): PendingChanges {
  const pending = recorder as Partial<PendingRecorder & BatchChangeRecorder>
  if (typeof pending.begin === 'function') return pending.begin(changes, ctx)
  return {
    commit: () => (typeof pending.recordAll === 'function' ? pending.recordAll(changes, ctx) : changes.map((change) => recorder.record(change, ctx))),
    abort: () => {}
  }
}

/** {@link PendingChanges.abort} that never throws: the rows stay pending and are reconciled at the next start. */
export function abortQuietly(pending: PendingChanges): void {
  try {
    pending.abort()
  } catch {
    // The database is busy or gone; reconciliation drops the rows later (the file holds `before`).
  }
}

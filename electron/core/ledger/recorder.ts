import type { LearnedChange, LedgerEntry, WriteContext } from '../../../shared/ledger'

/** What every store writes its changes through. The ledger is the only implementation outside tests. */
export interface ChangeRecorder {
  record(change: LearnedChange, ctx: WriteContext): LedgerEntry
}

/** A recorder that can store several rows as one unit: all of them, or (when it throws) none. */
export interface BatchChangeRecorder extends ChangeRecorder {
  recordAll(changes: readonly LearnedChange[], ctx: WriteContext): LedgerEntry[]
}

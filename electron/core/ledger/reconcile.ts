import { hostname } from 'node:os'
import type { LedgerEntry } from '../../../shared/ledger'
import { LockTimeoutError } from '../fs/lock'
import type { Ledger, UnsettledEntry } from './ledger'

/** Whether a pending row's change is on disk: `landed` (the file holds `after`), `absent` (it holds `before`), or neither. */
export type Verdict = 'landed' | 'absent' | 'unknown'

/** What a store tells reconciliation about its own rows (memory and skills each provide one). */
export interface PendingJudge {
  owns(entry: LedgerEntry): boolean
  /** Rows with the same key are written under the same lock. */
  lockKey(entry: LedgerEntry): string
  /** Runs `fn` holding that lock, so no live writer is between its pending row and its file change. */
  withTargetLock<T>(entry: LedgerEntry, fn: () => T | Promise<T>, timeoutMs: number): Promise<T>
  /** Reads the target now. */
  judge(entry: LedgerEntry): Verdict
}

/** What {@link reconcileLedger} needs: an open data home has both. */
export interface ReconcileHost {
  ledger: Ledger
  ledgerJudges: readonly PendingJudge[]
}

export interface ReconcileOptions {
  /** How long to wait for a live writer's lock before leaving its rows for later (default 1 s). */
  lockTimeoutMs?: number
}

export interface ReconcileResult {
  /** Rows whose change is on disk: now on the timeline. */
  committed: LedgerEntry[]
  /** Rows whose change never reached the disk: deleted. */
  dropped: LedgerEntry[]
  /** Rows the files agree with neither way: kept off the timeline for `cairn doctor` to show. */
  conflicts: LedgerEntry[]
  /** Rows left pending (their writer still holds the lock, or no store knows them), with why. */
  skipped: { entry: LedgerEntry; reason: string }[]
}

/** True when the row's writer ran on this machine and is gone, so it can no longer be mid-write. */
function writerIsGone(writer: string | null): boolean {
  if (!writer) return false
  const at = writer.lastIndexOf(':')
  const pid = Number(writer.slice(at + 1))
  if (writer.slice(0, at) !== hostname() || !Number.isInteger(pid) || pid <= 0 || pid === process.pid) return false
  try {
    process.kill(pid, 0)
    return false
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'ESRCH'
  }
}

/** Rows one write made together (same target, time and attribution): they landed together or not at all. */
function batchKey(entry: UnsettledEntry): string {
  return JSON.stringify([entry.target, entry.at, entry.source, entry.sessionId, entry.reviewId, entry.writer])
}

/**
 * Settles ledger rows that a killed writer left pending: a row whose change is on disk is committed,
 * one whose change never landed is dropped, and one the file agrees with neither way is marked a
 * conflict. Rows of a writer that is gone are judged at once; any other row only under its target's
 * lock (a live writer commits its own rows). Called when a data home is opened and by `cairn doctor`.
 */
export async function reconcileLedger(core: ReconcileHost, options: ReconcileOptions = {}): Promise<ReconcileResult> {
  const result: ReconcileResult = { committed: [], dropped: [], conflicts: [], skipped: [] }
  const pending = core.ledger.unsettled('pending')
  if (pending.length === 0) return result
  const timeoutMs = options.lockTimeoutMs ?? 1_000

  const groups = new Map<string, { judge: PendingJudge; rows: UnsettledEntry[] }>()
  for (const entry of pending) {
    const index = core.ledgerJudges.findIndex((candidate) => candidate.owns(entry))
    if (index === -1) {
      result.skipped.push({ entry, reason: `no store knows ledger rows of kind ${entry.kind} on ${entry.target}` })
      continue
    }
    const judge = core.ledgerJudges[index]
    const key = `${index}\0${judge.lockKey(entry)}`
    const group = groups.get(key) ?? { judge, rows: [] }
    group.rows.push(entry)
    groups.set(key, group)
  }

  const settle = (judge: PendingJudge, rows: UnsettledEntry[]): void => {
    // Another process may have settled them meanwhile.
    const still = rows.filter((row) => core.ledger.getAnyState(row.id)?.state === 'pending')
    const batches = new Map<string, UnsettledEntry[]>()
    for (const row of still) batches.set(batchKey(row), [...(batches.get(batchKey(row)) ?? []), row])
    for (const batch of batches.values()) {
      const verdicts = new Set(batch.map((row) => judge.judge(row)))
      const verdict: Verdict = verdicts.size === 1 ? [...verdicts][0] : 'unknown'
      const ids = batch.map((row) => row.id)
      if (verdict === 'landed') {
        core.ledger.settlePending(ids, 'commit')
        result.committed.push(...ids.map((id) => core.ledger.get(id)!).filter(Boolean))
      } else if (verdict === 'absent') {
        core.ledger.settlePending(ids, 'drop')
        result.dropped.push(...batch)
      } else {
        core.ledger.settlePending(ids, 'conflict')
        result.conflicts.push(...batch)
      }
    }
  }

  for (const { judge, rows } of groups.values()) {
    const gone = rows.filter((row) => writerIsGone(row.writer))
    const live = rows.filter((row) => !gone.includes(row))
    if (gone.length) settle(judge, gone)
    if (live.length === 0) continue
    try {
      await judge.withTargetLock(live[0], () => settle(judge, live), timeoutMs)
    } catch (error) {
      const reason =
        error instanceof LockTimeoutError
          ? 'its target is locked by a running Cairn process; that process settles it, or the next start does'
          : `it could not be settled (${(error as Error).message})`
      for (const entry of live) result.skipped.push({ entry, reason })
    }
  }
  return result
}

import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { translator } from '../../../shared/i18n'
import { describeReviewFailure } from '../../../shared/i18n/describe-review-failure'
import { emptyReviewSummary } from '../../../shared/review-outcome'
import { openStateDb, type StateDb } from '../../../electron/core/db/state-db'
import { ReviewRuns } from '../../../electron/core/ledger/review-runs'

let dir: string
let db: StateDb

afterEach(() => {
  db?.close()
  rmSync(dir, { recursive: true, force: true })
})

const zh = translator('zh-CN')

function openRuns(): ReviewRuns {
  dir = mkdtempSync(join(tmpdir(), 'cairn-runs-'))
  db = openStateDb(join(dir, 'state.db'))
  return new ReviewRuns(db)
}

function queueAndStart(runs: ReviewRuns, id: string, pid: number | null = 123): void {
  runs.queued({ reviewId: id, sessionId: null, kinds: ['memory'], reasons: [{ code: 'requested' }] })
  runs.started(id, pid)
}

describe('a review run’s failure', () => {
  it('is stored as its code and figures, worded by the face in the user’s language, with the English kept beside it', () => {
    const runs = openRuns()
    queueAndStart(runs, 'r1')
    expect(runs.failed('r1', 'timeout', { code: 'over_budget', seconds: 90 })).toBe(true)
    const run = runs.get('r1')!
    expect(run.failure).toEqual({ code: 'over_budget', seconds: 90 })
    expect(run.error).toBe('The review took longer than its 90 s budget and was stopped.')
    expect(describeReviewFailure(run.failure!, zh)).toBe('审查超出了 90 秒的时间预算，已被停止。')
    expect(db.prepare("SELECT failure FROM review_runs WHERE id = 'r1'").pluck().get()).toBe('{"code":"over_budget","seconds":90}')
  })

  it('keeps the English the writer gives (the worker’s output) while the code stays data', () => {
    const runs = openRuns()
    queueAndStart(runs, 'r1')
    runs.failed('r1', 'crashed', { code: 'did_not_start', seconds: 2 }, { error: 'The review worker did not start within 2 s.\nLast output:\nboom' })
    expect(runs.get('r1')).toMatchObject({ failure: { code: 'did_not_start', seconds: 2 }, error: 'The review worker did not start within 2 s.\nLast output:\nboom' })
  })

  it('of a row written before the failure column is read back from its English', () => {
    const runs = openRuns()
    queueAndStart(runs, 'old')
    db.prepare(
      "UPDATE review_runs SET status = 'crashed', finished_at = 2, failure = NULL, error = ? WHERE id = 'old'"
    ).run('The review worker (pid 42) is gone without recording how the review ended: Cairn or the worker was stopped or killed mid-review. Nothing is retried; later conversations are reviewed as usual.')
    const run = runs.get('old')!
    expect(run.failure).toEqual({ code: 'worker_gone', pid: 42 })
    expect(describeReviewFailure(run.failure!, zh)).toMatch(/^审查进程（pid 42）已消失/)
  })

  it('closed by recovery is stored as data too', () => {
    const runs = openRuns()
    queueAndStart(runs, 'gone', 999)
    expect(runs.recoverStale({ budgetMs: 1000, isAlive: () => false }).crashed).toEqual(['gone'])
    expect(runs.get('gone')!.failure).toEqual({ code: 'worker_gone', pid: 999 })
  })
})

describe('a review run’s ending', () => {
  it('refuses a second writer: the first ending stands, its failure and words both', () => {
    const runs = openRuns()
    queueAndStart(runs, 'r1')
    // The owner (say a detached worker) records its ending...
    expect(runs.failed('r1', 'failed', { code: 'lock_held', seconds: 60 })).toBe(true)
    // ...then another writer (its host, recovery) tries to close the same row.
    expect(runs.failed('r1', 'crashed', { code: 'worker_exited', exitCode: '1', reported: '' })).toBe(false)
    expect(runs.recoverStale({ budgetMs: 1, now: Date.now() + 10_000, isAlive: () => false })).toEqual({ crashed: [], failed: [] })
    expect(runs.get('r1')).toMatchObject({ status: 'failed', failure: { code: 'lock_held', seconds: 60 } })
    expect(runs.get('r1')!.error).toMatch(/^Another review of this data home held the review lock for this review's whole 60 s budget/)
  })

  it('is written once: a second ending, from whichever writer, changes nothing', () => {
    dir = mkdtempSync(join(tmpdir(), 'cairn-runs-'))
    db = openStateDb(join(dir, 'state.db'))
    const runs = new ReviewRuns(db)
    runs.queued({ reviewId: 'r1', sessionId: null, kinds: ['memory'], reasons: [{ code: 'requested' }] })
    runs.started('r1', 123)
    expect(runs.failed('r1', 'timeout', 'Over its budget.')).toBe(true)
    expect(runs.finished('r1', { summary: emptyReviewSummary() })).toBe(false)
    expect(runs.failed('r1', 'crashed', 'The review worker exited.')).toBe(false)
    expect(runs.get('r1')).toMatchObject({ status: 'timeout', error: 'Over its budget.' })
    expect(runs.finished('unknown', { summary: emptyReviewSummary() })).toBe(false)
  })
})

import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { emptyReviewSummary } from '../../../shared/review-outcome'
import { openStateDb, type StateDb } from '../../../electron/core/db/state-db'
import { ReviewRuns } from '../../../electron/core/ledger/review-runs'

let dir: string
let db: StateDb

afterEach(() => {
  db?.close()
  rmSync(dir, { recursive: true, force: true })
})

describe('a review run’s ending', () => {
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

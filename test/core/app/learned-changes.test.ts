import { describe, expect, it } from 'vitest'
import type { AppReviewEvent, LearnedChange } from '../../../shared/ipc/contract'
import type { LedgerEntry } from '../../../shared/ledger'
import { emptyReviewSummary } from '../../../shared/review-outcome'
import type { ReviewEvent } from '../../../shared/review-protocol'
import { streamLearnedChanges } from '../../../electron/core/app/learned-changes'
import { EventBus } from '../../../electron/core/events/event-bus'
import type { ReviewRun } from '../../../electron/core/ledger/review-runs'

function row(id: number, reviewId: string | null): LedgerEntry {
  return {
    id, at: new Date(0).toISOString(), kind: 'memory.add', target: 'memories/USER.md', source: reviewId ? 'review' : 'agent',
    sessionId: null, reviewId, before: null, after: `entry ${id}`, meta: { store: 'user' }, revertedBy: null
  } as LedgerEntry
}

function run(id: string, status: ReviewRun['status']): ReviewRun {
  return {
    id, sessionId: 's1', kinds: ['memory'], reasons: [{ code: 'requested' }], status, queuedAt: 1, startedAt: 2, finishedAt: status === 'done' ? 3 : null,
    summary: status === 'done' ? emptyReviewSummary() : null, failure: null, error: null, pid: 7, model: 'm', promptTokens: null, completionTokens: null
  }
}

describe('the stream of learned changes', () => {
  it('carries this process’s rows and a review worker’s rows alike, each with its review run, and passes other review events on', () => {
    const local = new EventBus<LedgerEntry>()
    const host = { events: new EventBus<ReviewEvent>(), runs: { get: (id: string) => (id === 'rv1' ? current : null) } }
    let current = run('rv1', 'running')
    const changes: LearnedChange[] = []
    const reviews: AppReviewEvent[] = []
    const stop = streamLearnedChanges(
      { ledger: { onRecord: (listener) => local.on(listener), list: () => [] }, host },
      { changed: (change) => changes.push(change), review: (event) => reviews.push(event) }
    )
    local.emit(row(1, null))
    host.events.emit({ type: 'review_action', reviewId: 'rv1', entry: row(2, 'rv1') })
    current = run('rv1', 'done')
    host.events.emit({ type: 'review_finished', reviewId: 'rv1', sessionId: 's1', outcome: { summary: emptyReviewSummary(), entries: [], skillOutcomes: [], finalText: '', iterations: 1, toolCalls: 0, refusedCalls: [] } })
    stop()
    local.emit(row(3, null))

    expect(changes.map((change) => [change.entry.id, change.review?.status ?? null])).toEqual([[1, null], [2, 'running']])
    expect(reviews.map((event) => event.type)).toEqual(['review_finished'])
    expect(reviews[0].run?.status).toBe('done')
  })
})

describe('the stream of learned changes when its run cannot be read', () => {
  it('still carries the change and the ending, without a run, so the faces reload instead of missing them', () => {
    const local = new EventBus<LedgerEntry>()
    const host = { events: new EventBus<ReviewEvent>(), runs: { get: (): ReviewRun | null => { throw new Error('database is locked') } } }
    const changes: LearnedChange[] = []
    const reviews: AppReviewEvent[] = []
    streamLearnedChanges(
      { ledger: { onRecord: (listener) => local.on(listener), list: () => [] }, host },
      { changed: (change) => changes.push(change), review: (event) => reviews.push(event) }
    )
    host.events.emit({ type: 'review_action', reviewId: 'rv1', entry: row(2, 'rv1') })
    host.events.emit({ type: 'review_failed', reviewId: 'rv1', sessionId: 's1', error: 'provider down', failure: { code: 'other', text: 'provider down' }, crashed: false })
    expect(changes.map((change) => [change.entry.id, change.review])).toEqual([[2, undefined]])
    expect(reviews.map((event) => [event.type, event.run])).toEqual([['review_failed', undefined]])
  })
})

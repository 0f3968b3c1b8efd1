import type { AppReviewEvent, LearnedChange } from '../../../shared/ipc/contract'
import type { ReviewRun } from '../../../shared/ipc/domain'
import type { ReviewEvent } from '../../../shared/review-protocol'
import type { EventBus } from '../events/event-bus'
import type { Ledger } from '../ledger/ledger'
import type { ReviewRuns } from '../ledger/review-runs'
import { summarizeReview } from '../staging/review-summary'
import { toReviewRun } from './handlers/learning'

/** Where the stream reads from: this process's ledger, the review host's events and the `review_runs` it keeps. */
export interface LearnedChangeSources {
  ledger: Pick<Ledger, 'onRecord' | 'list'>
  host: { events: Pick<EventBus<ReviewEvent>, 'on'>; runs: Pick<ReviewRuns, 'get'> }
}

/** What a stored review run is read back from: its row, and its ledger rows when it has no summary of its own. */
export interface StoredRunSources {
  ledger: Pick<Ledger, 'list'>
  host: { runs: Pick<ReviewRuns, 'get'> }
}

export interface LearnedChangeSinks {
  changed(change: LearnedChange): void
  review(event: AppReviewEvent): void
}

/** A review run as the faces show it; a run recorded before summaries were data has only an English line, so it is rebuilt from its rows. */
export function storedReviewRun(sources: StoredRunSources, reviewId: string): ReviewRun | null {
  const run = sources.host.runs.get(reviewId)
  if (!run) return null
  const summary = run.summary ?? (run.status === 'done' ? summarizeReview(sources.ledger.list({ reviewId, limit: 500 })) : null)
  return { ...toReviewRun(run), summary }
}

/**
 * The one stream of learned changes to the faces: every ledger row as it is committed, whichever
 * process wrote it (this one's stores through the ledger's listener; a review worker's, which never
 * reach this process's ledger, through the `action` frames its host passes on), each with the review
 * run it belongs to as stored now, so a timeline appends it instead of reloading. The host's other
 * events go on as review events; one that ends a review carries its run as stored. Returns the stop function.
 */
export function streamLearnedChanges(sources: LearnedChangeSources, sinks: LearnedChangeSinks): () => void {
  // Reading the run back must never hold the event itself up: without its run (undefined) a face
  // reloads what it shows, so a busy or broken state.db costs a reload, not a lost change or ending.
  const runOf = (reviewId: string): ReviewRun | null | undefined => {
    try {
      return storedReviewRun(sources, reviewId)
    } catch {
      return undefined
    }
  }
  const changed = (entry: LearnedChange['entry']): void => sinks.changed({ entry, review: entry.reviewId ? runOf(entry.reviewId) : null })
  const stops = [
    sources.ledger.onRecord(changed),
    sources.host.events.on((event) => {
      if (event.type === 'review_action') return changed(event.entry)
      const ended = event.type === 'review_finished' || event.type === 'review_failed'
      sinks.review(ended ? { ...event, run: runOf(event.reviewId) } : event)
    })
  ]
  return () => {
    for (const stop of stops) stop()
  }
}

import { createStore, type StoreApi } from 'zustand/vanilla'
import type { AppReviewEvent } from '../../../shared/ipc/contract'
import type { ReviewFailure } from '../../../shared/review-failures'
import type { ReviewOutcome } from '../../../shared/review-outcome'
import type { CairnClient } from '../ipc/client'

/** How a curation pass ended: proposals to review, nothing worth changing, or why it did not finish. */
export type CurationEnding = { kind: 'proposed'; count: number } | { kind: 'nothing' } | { kind: 'failed'; failure: ReviewFailure }

export interface CurationState {
  /** The `learning.curate` request is on its way. */
  asking: boolean
  /**
   * The curation pass queued or running, as the review events tell it: one this window asked for
   * (`asked`), or one seen being queued (the schedule, another window), reported by nobody here.
   */
  current: { reviewId: string; phase: 'waiting' | 'running'; asked: boolean } | null
  /** How the last pass this window asked for ended, until dismissed or the next one is asked for. */
  ending: (CurationEnding & { reviewId: string }) | null
  /** Queues a pass (main archives unused skills first); resolves with its review id, throws the request's error. */
  curate(): Promise<string>
  /** A review event: returns how a pass this window asked for ended, when this is its ending. */
  handleReview(event: AppReviewEvent): CurationEnding | null
  dismissEnding(): void
}

export type CurationStore = StoreApi<CurationState>

/** How many proposals a finished review left in the Inbox (both fields are absent when it left none). */
export function proposedCount(outcome: ReviewOutcome): number {
  return outcome.proposals?.length || outcome.summary.proposed || 0
}

/**
 * "Tidy the library now" and what became of it: curation runs are review runs with reason
 * `curation`, so their progress and ending come on `review.event` like any review's.
 */
export function createCurationStore(client: CairnClient): CurationStore {
  return createStore<CurationState>()((set, get) => ({
    asking: false,
    current: null,
    ending: null,

    async curate() {
      set({ asking: true, ending: null })
      try {
        const { reviewId } = await client.request('learning.curate')
        // Its queued event may have come first: the pass is known already, now as this window's.
        const seen = get().current?.reviewId === reviewId ? get().current : null
        set({ current: { reviewId, phase: seen?.phase ?? 'waiting', asked: true } })
        return reviewId
      } finally {
        set({ asking: false })
      }
    },

    handleReview(event) {
      const current = get().current
      if (event.type === 'review_queued' || event.type === 'review_started') {
        const phase = event.type === 'review_started' ? 'running' : 'waiting'
        if (current?.reviewId === event.reviewId) set({ current: { ...current, phase } })
        else if (!current && event.reasons.some((reason) => reason.code === 'curation')) set({ current: { reviewId: event.reviewId, phase, asked: false } })
        return null
      }
      if ((event.type !== 'review_finished' && event.type !== 'review_failed') || current?.reviewId !== event.reviewId) return null
      const ending: CurationEnding =
        event.type === 'review_failed'
          ? { kind: 'failed', failure: event.failure }
          : proposedCount(event.outcome) > 0
            ? { kind: 'proposed', count: proposedCount(event.outcome) }
            : { kind: 'nothing' }
      set({ current: null, ...(current.asked ? { ending: { ...ending, reviewId: event.reviewId } } : {}) })
      return current.asked ? ending : null
    },

    dismissEnding: () => set({ ending: null })
  }))
}

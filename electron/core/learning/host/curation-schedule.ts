import type { ReviewJob } from '../../../../shared/review-protocol'
import { DAY_MS } from '../../skills/skill-stats'
import type { LearningState } from './learning-state'
import type { ReviewHost } from './review-host'

/**
 * Curation: a review of the whole library instead of one conversation, on request (`cairn curate`,
 * the app) or every `learning.curateEveryDays` when the app is idle. It runs in the review worker like
 * any review, marked by its reason `curation` (the worker's side is curation-overview.ts); everything
 * it changes becomes a proposal. This is the host's side: when to queue one, and the job it queues.
 */

/** When the last curation was queued (ms since the epoch), per data home. */
export const LAST_CURATION_KEY = 'curation.lastQueuedAt'

/** The job a curation pass is queued as (kept apart from conversation reviews: nothing merges into it). */
export function curationJob(): Omit<ReviewJob, 'reviewId'> {
  return { sessionId: null, kinds: ['memory', 'skills'], reasons: [{ code: 'curation' }], messages: [], skillsUsed: [] }
}

/** Whether the schedule says a curation is due: never when `everyDays` is 0; due at once when none ran yet. */
export function curationDue(state: Pick<LearningState, 'get'>, everyDays: number, now = Date.now()): boolean {
  if (everyDays <= 0) return false
  const last = state.get<number | null>(LAST_CURATION_KEY, null)
  return typeof last !== 'number' || now - last >= everyDays * DAY_MS
}

/** Notes that a curation was queued now, so the schedule waits its interval again. */
export function markCurationQueued(state: Pick<LearningState, 'set'>, now = Date.now()): void {
  state.set(LAST_CURATION_KEY, now)
}

/** Queues a curation pass now (kept apart: nothing merges into it) and notes the time for the schedule. */
export function queueCuration(host: Pick<ReviewHost, 'enqueue'>, state: Pick<LearningState, 'set'>, now = Date.now()): string {
  markCurationQueued(state, now)
  return host.enqueue(curationJob(), { coalesce: false })
}

/** How often the app checks whether a scheduled curation is due. */
export const CURATION_CHECK_MS = 30 * 60_000

export interface CurationScheduleDeps {
  state: Pick<LearningState, 'get' | 'set'>
  everyDays: () => number
  /** Nothing is answering and no review runs or waits: curation never competes with the user. */
  isIdle: () => boolean
  host: Pick<ReviewHost, 'enqueue'>
  clock: { now(): number; every(ms: number, tick: () => void): () => void }
}

/** Checks every {@link CURATION_CHECK_MS} and queues a curation when one is due and the app is idle; returns the stop function. */
export function scheduleCuration(deps: CurationScheduleDeps): () => void {
  return deps.clock.every(CURATION_CHECK_MS, () => {
    const now = deps.clock.now()
    if (deps.isIdle() && curationDue(deps.state, deps.everyDays(), now)) queueCuration(deps.host, deps.state, now)
  })
}

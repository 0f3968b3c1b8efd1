import type { ReviewJob } from '../../../../shared/review-protocol'
import type { OtherConversation } from './other-conversations'
import { mergeJobs } from './review-start-frame'

/**
 * What the learning loop planned a queued review of a conversation from, kept with the job so a later
 * trigger that merges into it builds on it: the reviewed mark its digest starts from (see
 * toReviewMessages) and the other conversations it took in.
 */
export interface QueuedPlan {
  base: number
  others: OtherConversation[]
}

interface Queued {
  job: ReviewJob
  /** Nothing merges into it and it merges into nothing (see ReviewHost.enqueue's `coalesce`). */
  standalone: boolean
  plan: QueuedPlan | null
}

/** The review host's queue: the one place that knows which reviews wait, in order, and what each was planned from. */
export class ReviewQueue {
  private items: Queued[] = []

  get length(): number {
    return this.items.length
  }

  /**
   * Adds a job, or merges it into the same session's waiting one (unless either stands alone);
   * returns the job that will run. A plan given replaces the waiting one's; none keeps it.
   */
  add(job: ReviewJob, options: { coalesce: boolean; plan?: QueuedPlan }): ReviewJob {
    const waiting = job.sessionId === null || !options.coalesce ? undefined : this.items.find((queued) => queued.job.sessionId === job.sessionId && !queued.standalone)
    if (!waiting) {
      this.items.push({ job, standalone: !options.coalesce, plan: options.plan ?? null })
      return job
    }
    waiting.job = mergeJobs(waiting.job, job)
    if (options.plan) waiting.plan = options.plan
    return waiting.job
  }

  has(reviewId: string): boolean {
    return this.items.some((queued) => queued.job.reviewId === reviewId)
  }

  /** The session's waiting review a new trigger would merge into, with its plan; null when there is none. */
  waitingFor(sessionId: string): { reviewId: string; plan: QueuedPlan | null } | null {
    const waiting = this.items.find((queued) => queued.job.sessionId === sessionId && !queued.standalone)
    return waiting ? { reviewId: waiting.job.reviewId, plan: waiting.plan } : null
  }

  /** Takes the next job to run. */
  next(): ReviewJob | undefined {
    return this.items.shift()?.job
  }

  /** Takes every waiting job (a closing host drops them). */
  drain(): ReviewJob[] {
    return this.items.splice(0).map((queued) => queued.job)
  }
}

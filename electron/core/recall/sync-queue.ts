/** How a failed job is tried again: `attempts` in all, waiting `baseDelayMs` × 4^(try − 1) between tries. */
export interface RetryPolicy {
  attempts: number
  baseDelayMs: number
}

export const DEFAULT_RETRY: RetryPolicy = { attempts: 4, baseDelayMs: 500 }

export interface SyncQueueHooks {
  /** A job failed its last try and was dropped. */
  onGaveUp(error: unknown): void
  /** A job finished (after any number of tries). */
  onDone(): void
}

/**
 * One ordered background queue (Hermes runs sync_all on a single-worker executor): jobs run one at a
 * time in the order given, each tried again with backoff, so turn 2 never reaches a provider before
 * turn 1 and a failing provider costs the turn nothing.
 */
export class SyncQueue {
  private tail: Promise<void> = Promise.resolve()
  private waiting = 0
  private closed = false

  constructor(
    private readonly hooks: SyncQueueHooks,
    private readonly retry: RetryPolicy = DEFAULT_RETRY
  ) {}

  /** Jobs not finished yet (the running one included). */
  get pending(): number {
    return this.waiting
  }

  push(job: () => Promise<void>): void {
    if (this.closed) return
    this.waiting++
    this.tail = this.tail.then(() => this.run(job))
  }

  /** Resolves once every job pushed so far has finished or given up. */
  drain(): Promise<void> {
    return this.tail
  }

  /** Takes no more jobs; the ones queued still run. */
  close(): void {
    this.closed = true
  }

  private async run(job: () => Promise<void>): Promise<void> {
    try {
      for (let attempt = 1; ; attempt++) {
        try {
          await job()
          this.hooks.onDone()
          return
        } catch (error) {
          if (attempt >= this.retry.attempts) {
            this.hooks.onGaveUp(error)
            return
          }
          await sleep(this.retry.baseDelayMs * 4 ** (attempt - 1))
        }
      }
    } finally {
      this.waiting--
    }
  }
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms))
}

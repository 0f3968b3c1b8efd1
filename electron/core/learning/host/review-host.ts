import { randomUUID } from 'node:crypto'
import type { ReviewFailure } from '../../../../shared/review-failures'
import type { ReviewReason } from '../../../../shared/review-reasons'
import { reviewJobSchema, type HostMessage, type ReviewEvent, type ReviewJob, type ReviewKind, type ReviewsPausedReason } from '../../../../shared/review-protocol'
import { EventBus } from '../../events/event-bus'
import type { ProviderKeys } from '../../provider/provider-access'
import type { ProviderSettings } from '../../provider/provider-settings'
import type { SettingsStore } from '../../config/config-store'
import type { HomePaths } from '../../config/home'
import type { StateDb } from '../../db/state-db'
import { failedEnding, type RunEnding, type RunLimits } from './review-run-state'
import { ReviewRuns, type StaleRecovery } from '../../ledger/review-runs'
import { ReviewQueue, type QueuedPlan } from './review-queue'
import { orderKinds, startFrame, type ReviewSettings } from './review-start-frame'
import type { WorkerHandle, WorkerSpawner } from './spawn-worker'
import { WorkerRun } from './worker-run'

export type { ReviewSettings } from './review-start-frame'

export type ReviewResult = 'done' | 'failed' | 'timeout' | 'crashed' | 'skipped'

export interface ReviewHostOptions {
  /** The data home the worker opens: the root the host's own core opened. */
  home: string
  /** `review_runs`, where the host records the runs it owns (see review-run-state.ts). */
  runs: ReviewRuns
  /** Read when a review is queued and when it starts, so a settings change applies to the next one. */
  settings: () => ReviewSettings
  /** better-sqlite3 binary the worker's runtime needs (the Electron app's own build). */
  nativeBinding?: string
  spawn: WorkerSpawner
  /**
   * The chat provider's settings, key included, read when each review starts (the key travels in the
   * start message). Reviews run on it unless `learning.model` / `learning.baseURL` say otherwise.
   */
  provider: () => ProviderSettings
  /** The process's provider keys: the one for `learning.baseURL` is read at each start (the app's secret store, the environment in the CLI). */
  keys?: ProviderKeys
  limits?: ReviewHostLimits
  /** Workers finish on their own if this process exits first (the one-shot CLI): see {@link ReviewHost.release}. */
  detached?: boolean
}

export interface ReviewHostLimits {
  /** Time budget of one review, which the worker counts from taking the review lock; default: config `learning.reviewTimeoutMs`. */
  timeoutMs?: number
  /** Model calls per review; default: config `learning.reviewMaxIterations`. */
  maxIterations?: number
  /**
   * The worker stops itself at its budget; the host kills it only this long past the most it may
   * take (waiting for the lock, at most one budget, then the budget), or this long after its outcome.
   */
  killGraceMs?: number
  /** On close: how long a worker gets to exit after `shutdown` before it is killed. */
  stopGraceMs?: number
  /**
   * How long a new worker has to say `ready` (load its runtime) before it is killed and the run
   * recorded as a crash ("did not start"); default {@link DEFAULT_READY_TIMEOUT_MS}. Its budget's
   * clock only starts after that, so this bounds how long a stuck start can hold up the queue or {@link ReviewHost.release}.
   */
  readyTimeoutMs?: number
  /** Crashes or timeouts in a row after which reviews pause until {@link ReviewHost.resume}. */
  maxConsecutiveFailures?: number
}

/** What this host is doing now (its own state, not other processes' `review_runs` rows). */
export interface ReviewHostStatus {
  running: { reviewId: string; sessionId: string | null; kinds: ReviewKind[]; reasons: ReviewReason[]; startedAt: number } | null
  queued: number
  paused: boolean
  /** Why reviews are paused, as the host said in its `reviews_paused` event; null when not paused. */
  pausedReason: ReviewsPausedReason | null
}

/** What a host reads of its open data home: where it is, its state.db, the learning settings and the native binding. */
export interface ReviewHostHome {
  paths: Pick<HomePaths, 'root'>
  db: StateDb
  config: Pick<SettingsStore, 'get'>
  nativeBinding?: string
}

/** What a host uses of an open data home. */
export function reviewHostDepsOf(core: ReviewHostHome): Pick<ReviewHostOptions, 'home' | 'runs' | 'settings' | 'nativeBinding'> {
  return { home: core.paths.root, runs: new ReviewRuns(core.db), settings: () => core.config.get().learning, nativeBinding: core.nativeBinding }
}

/** A worker starts in well under a second; this is for a slow, loaded machine, not for a review. */
export const DEFAULT_READY_TIMEOUT_MS = 15_000
const REMEMBERED_RESULTS = 500
/** Past the stop grace (close) or the ready deadline (release): the most to wait for a killed worker's exit to be reported. */
const EXIT_REPORT_SLACK_MS = 4_000

/**
 * Runs background reviews for the chat process, each in a fresh worker process, one at a time.
 * Triggers that arrive while a review runs wait; several for the same session merge into one job.
 * A worker that crashes, does not start in time or overruns is ended and recorded (the job is not
 * retried); after three such failures in a row reviews pause until resumed. Nothing here throws into the chat: every
 * failure becomes an event and a `review_runs` row. Each run's worker process is supervised by a
 * {@link WorkerRun} under the run state machine, which also says which `review_runs` writes are this host's.
 */
export class ReviewHost {
  readonly events = new EventBus<ReviewEvent>()
  readonly runs: ReviewRuns
  private readonly limits: Required<Pick<ReviewHostLimits, 'killGraceMs' | 'stopGraceMs' | 'readyTimeoutMs' | 'maxConsecutiveFailures'>> & ReviewHostLimits
  /** The one queue of reviews waiting to run here (the learning loop asks it rather than keeping its own). */
  private readonly queue = new ReviewQueue()
  private current: WorkerRun | null = null
  private readonly results = new Map<string, ReviewResult>()
  private readonly waiters = new Map<string, Array<(result: ReviewResult) => void>>()
  private idleWaiters: Array<() => void> = []
  private failures = 0
  private isPaused = false
  private pauseReason: ReviewsPausedReason | null = null
  private closed = false
  /** Rows of earlier processes this host found abandoned and ended when it was made. */
  readonly recovered: StaleRecovery

  constructor(private readonly options: ReviewHostOptions) {
    this.runs = options.runs
    this.limits = { killGraceMs: 5_000, stopGraceMs: 1_000, readyTimeoutMs: DEFAULT_READY_TIMEOUT_MS, maxConsecutiveFailures: 3, ...options.limits }
    this.recovered = this.safely(() => this.runs.recoverStale({ budgetMs: this.budgetMs() })) ?? { crashed: [], failed: [] }
  }

  get paused(): boolean {
    return this.isPaused
  }

  /** What runs and waits here now; the UI shows this rather than guessing from rows other processes may have left. */
  status(): ReviewHostStatus {
    const run = this.current
    return {
      running: run ? { reviewId: run.job.reviewId, sessionId: run.job.sessionId, kinds: run.job.kinds, reasons: run.job.reasons, startedAt: run.startedAt } : null,
      queued: this.queue.length,
      paused: this.isPaused,
      pausedReason: this.isPaused ? this.pauseReason : null
    }
  }

  /**
   * Queues a review and returns its id (the id of the queued job it merged into, if any). With
   * `coalesce: false` the job keeps its own messages: nothing merges into it and it merges into
   * nothing (a review of the part of a conversation about to be compressed must see exactly that part).
   * `plan`: what the caller built it from, kept with the waiting job (see {@link queuedFor}).
   */
  enqueue(input: Omit<ReviewJob, 'reviewId'>, options: { coalesce?: boolean; plan?: QueuedPlan } = {}): string {
    const reviewId = randomUUID()
    try {
      const settings = this.options.settings()
      if (this.closed || !settings.enabled || settings.mode === 'off') {
        this.settle(reviewId, 'skipped')
        return reviewId
      }
      const parsed = reviewJobSchema.safeParse({ ...input, reviewId })
      if (!parsed.success) {
        const { failure, error } = failedEnding('failed', { code: 'invalid_job', issues: parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ') })
        this.events.emit({ type: 'review_failed', reviewId, sessionId: input.sessionId ?? null, failure, error, crashed: false })
        this.settle(reviewId, 'failed')
        return reviewId
      }
      const job = { ...parsed.data, kinds: orderKinds(parsed.data.kinds) }
      const target = this.queue.add(job, { coalesce: options.coalesce !== false, plan: options.plan })
      this.safely(() => this.runs.queued(target))
      this.events.emit({ type: 'review_queued', reviewId: target.reviewId, sessionId: target.sessionId, kinds: target.kinds, reasons: target.reasons })
      this.pump()
      return target.reviewId
    } catch (error) {
      console.error('cairn: could not queue a review:', error)
      this.settle(reviewId, 'failed')
      return reviewId
    }
  }

  /** How a review ended; resolves when it does. Unknown ids answer from `review_runs`, else `skipped`. */
  wait(reviewId: string): Promise<ReviewResult> {
    const known = this.results.get(reviewId)
    if (known) return Promise.resolve(known)
    if (this.current?.job.reviewId === reviewId || this.queue.has(reviewId)) {
      return new Promise((resolve) => this.waiters.set(reviewId, [...(this.waiters.get(reviewId) ?? []), resolve]))
    }
    const row = this.safely(() => this.runs.get(reviewId))
    const status = row?.status
    return Promise.resolve(status && status !== 'queued' && status !== 'running' ? status : 'skipped')
  }

  /** The review is waiting in this host's queue (not started, not ended): a later trigger for its session merges into it. */
  isQueued(reviewId: string): boolean {
    return this.queue.has(reviewId)
  }

  /** The session's review waiting here that a new trigger would merge into, with what it was planned from; null when none waits. */
  queuedFor(sessionId: string): { reviewId: string; plan: QueuedPlan | null } | null {
    return this.queue.waitingFor(sessionId)
  }

  /**
   * For a quitting app: waits until these reviews have ended, at most `ms`, and says whether they
   * all did. The caller then closes the host, which records why any of them did not finish.
   */
  async settleWithin(reviewIds: string[], ms: number): Promise<boolean> {
    if (reviewIds.length === 0) return true
    let timer: NodeJS.Timeout | undefined
    const all = Promise.all(reviewIds.map((id) => this.wait(id))).then(() => true)
    const timeout = new Promise<boolean>((resolve) => (timer = setTimeout(() => resolve(false), ms)))
    try {
      return await Promise.race([all, timeout])
    } finally {
      clearTimeout(timer)
    }
  }

  /** Resolves when no review runs and none will start on its own (the queue is empty, or reviews are paused). */
  whenIdle(): Promise<void> {
    if (this.isIdle()) return Promise.resolve()
    return new Promise((resolve) => this.idleWaiters.push(resolve))
  }

  /** Lets the running review finish but starts no other until {@link resume}. */
  pause(reason: ReviewsPausedReason = { code: 'requested' }): void {
    if (this.isPaused) return
    this.isPaused = true
    this.pauseReason = reason
    this.events.emit({ type: 'reviews_paused', reason })
    this.checkIdle()
  }

  /** Starts reviews again and forgets earlier failures. */
  resume(): void {
    if (this.closed) return
    const was = this.isPaused
    this.isPaused = false
    this.pauseReason = null
    this.failures = 0
    if (was) this.events.emit({ type: 'reviews_resumed' })
    this.pump()
  }

  /**
   * Drops queued reviews, stops the running worker (politely, then by force) and waits for it to exit.
   * `dropReason` is what the dropped reviews' rows say (default: Cairn closed before they started).
   */
  async close(dropReason: ReviewFailure = { code: 'closed_before_start' }): Promise<void> {
    const run = this.current
    if (this.closed) return run?.when((phase) => phase === 'ended')
    this.closed = true
    this.dropQueue(dropReason)
    if (run?.stop()) await run.within(this.limits.stopGraceMs + EXIT_REPORT_SLACK_MS, (phase) => phase === 'ended')
    this.checkIdle()
  }

  /**
   * For a process about to exit (the one-shot CLI without --wait): once the running worker has its
   * start message, let it finish on its own (it must have been started `detached`); queued reviews
   * are dropped and recorded as not started. The host is closed afterwards and keeps no timer, listener
   * or database write for the released worker (which records its own outcome), so the caller may close
   * the core and exit at once.
   *
   * A worker still starting is waited for, never longer than the ready deadline: if it says `ready`
   * in time it gets its start message and is let go; if not, it is killed at the deadline as usual
   * and its crash is recorded here (the worker never knew its review, so it cannot record it) before
   * this resolves. Should even its exit go unreported, this gives up a little later, leaving the row
   * for the next host to recover as abandoned.
   */
  async release(): Promise<void> {
    if (this.closed) return
    this.closed = true
    this.dropQueue({ code: 'exited_before_start' })
    const run = this.current
    if (run?.phase === 'spawning') await run.within(this.limits.readyTimeoutMs + EXIT_REPORT_SLACK_MS, (phase) => phase !== 'spawning')
    // From here the worker records its own ending; the caller may close the core.
    if (run && this.options.detached && run.release() && this.current === run) this.current = null
    this.checkIdle()
  }

  private dropQueue(reason: ReviewFailure): void {
    for (const job of this.queue.drain()) {
      this.safely(() => this.runs.failed(job.reviewId, 'failed', reason))
      this.settle(job.reviewId, 'skipped')
    }
  }

  private pump(): void {
    if (this.current || this.isPaused || this.closed) return this.checkIdle()
    const job = this.queue.next()
    if (!job) return this.checkIdle()
    this.start(job)
  }

  private start(job: ReviewJob): void {
    const settings = this.options.settings()
    const budgetMs = this.budgetMs()
    // The worker waits for the review lock at most its budget (review-entry), then has the budget.
    const { readyTimeoutMs: readyMs, killGraceMs, stopGraceMs } = this.limits
    const limits: RunLimits = { readyMs, budgetMs, lockWaitMs: budgetMs, killGraceMs, stopGraceMs }
    let frame: HostMessage
    try {
      frame = startFrame({
        home: this.options.home,
        job,
        settings,
        chat: this.options.provider(),
        keys: this.options.keys,
        maxIterations: this.limits.maxIterations ?? settings.reviewMaxIterations,
        budgetMs,
        detached: this.options.detached ?? false,
        nativeBinding: this.options.nativeBinding
      })
    } catch (error) {
      return this.end(job, failedEnding('failed', { code: 'settings_unreadable', detail: (error as Error).message }))
    }
    const model = frame.type === 'start' ? frame.provider.model : null
    let handle: WorkerHandle
    try {
      handle = this.options.spawn()
    } catch (error) {
      return this.end(job, failedEnding('crashed', { code: 'worker_unstartable', detail: (error as Error).message }))
    }
    const pid = handle.pid ?? null
    this.safely(() => this.runs.started(job.reviewId, pid, Date.now(), model))
    this.events.emit({ type: 'review_started', reviewId: job.reviewId, sessionId: job.sessionId, kinds: job.kinds, reasons: job.reasons, pid })
    const run: WorkerRun = new WorkerRun(job, handle, frame, limits, {
      report: (event) => this.events.emit(event),
      end: (ending, record) => {
        if (this.current === run) this.current = null
        // The outcome names the model it ran on even when the runner did not say.
        const named: RunEnding = ending.status === 'done' && model && !ending.outcome.model ? { ...ending, outcome: { ...ending.outcome, model } } : ending
        this.end(job, named, record)
      }
    })
    this.current = run
    run.begin()
  }

  private budgetMs(): number {
    return this.limits.timeoutMs ?? this.options.settings().reviewTimeoutMs
  }

  /**
   * Records how a job ended (when this host owns that write: see review-run-state.ts), announces
   * it, counts it towards pausing and starts the next one. A job that never got a worker is the host's alone.
   */
  private end(job: ReviewJob, ending: RunEnding, record = true): void {
    if (ending.status === 'done') {
      this.failures = 0
      if (record) this.safely(() => this.runs.finished(job.reviewId, ending.outcome))
      this.events.emit({ type: 'review_finished', reviewId: job.reviewId, sessionId: job.sessionId, outcome: ending.outcome })
    } else {
      const { failure, error } = ending
      if (record) this.safely(() => this.runs.failed(job.reviewId, ending.status, failure, { error }))
      this.events.emit({ type: 'review_failed', reviewId: job.reviewId, sessionId: job.sessionId, failure, error, crashed: ending.status === 'crashed' })
      if (ending.status === 'crashed' || ending.status === 'timeout') this.failures++
      if (this.failures >= this.limits.maxConsecutiveFailures && !this.isPaused && !this.closed) {
        this.pause({ code: 'failures', count: this.failures, latest: error.split('\n')[0], latestFailure: failure })
      }
    }
    this.settle(job.reviewId, ending.status)
    this.pump()
  }

  private settle(reviewId: string, result: ReviewResult): void {
    this.results.set(reviewId, result)
    if (this.results.size > REMEMBERED_RESULTS) this.results.delete(this.results.keys().next().value!)
    for (const resolve of this.waiters.get(reviewId) ?? []) resolve(result)
    this.waiters.delete(reviewId)
  }

  private isIdle(): boolean {
    return !this.current && (this.queue.length === 0 || this.isPaused || this.closed)
  }

  private checkIdle(): void {
    if (!this.isIdle()) return
    const waiting = this.idleWaiters
    this.idleWaiters = []
    for (const resolve of waiting) resolve()
  }

  /** Bookkeeping must never break the chat: a failed write (say, a closed database) is logged and skipped. */
  private safely<T>(fn: () => T): T | undefined {
    try {
      return fn()
    } catch (error) {
      console.error('cairn: review bookkeeping failed:', error)
      return undefined
    }
  }
}

import { randomUUID } from 'node:crypto'
import {
  REVIEW_PROTOCOL,
  REVIEW_PROTOCOL_VERSION,
  reviewJobSchema,
  reviewKindSchema,
  workerMessageSchema,
  type HostMessage,
  type ReviewEvent,
  type ReviewJob,
  type ReviewKind
} from '../../../shared/review-protocol'
import { EventBus } from '../events/event-bus'
import type { ProviderSettings } from '../provider/provider-settings'
import type { CairnCore } from '../cairn'
import { buildStartMessage, exitEnding, newRun, type ActiveRun, type ReviewHostLimits, type ReviewHostStatus, type ReviewResult, type RunEnding } from './review-host-run'
import { ReviewRuns, type ReviewFailureStatus, type StaleRecovery } from './review-runs'
import type { WorkerHandle, WorkerSpawner } from './spawn-worker'

export type { ReviewHostLimits, ReviewHostStatus, ReviewResult } from './review-host-run'

export interface ReviewHostOptions {
  core: CairnCore
  spawn: WorkerSpawner
  /** Provider settings, key included, read when each review starts (the key travels in the start message). */
  provider: () => ProviderSettings
  limits?: ReviewHostLimits
  /**
   * Workers finish on their own if this process exits first (the one-shot CLI): see {@link ReviewHost.release}.
   */
  detached?: boolean
  /** better-sqlite3 binary the worker's runtime needs; default: the one the host's core opened with. */
  nativeBinding?: string
}

const KIND_ORDER: ReviewKind[] = reviewKindSchema.options
const REMEMBERED_RESULTS = 500

function union<T>(a: T[], b: T[]): T[] {
  return [...new Set([...a, ...b])]
}

/**
 * Runs background reviews for the chat process, each in a fresh worker process, one at a time.
 * Triggers that arrive while a review runs wait; several for the same session merge into one job.
 * A worker that crashes or overruns its time budget is ended and recorded (the job is not retried);
 * after three such failures in a row reviews pause until resumed. Nothing here throws into the chat:
 * every failure becomes an event and a `review_runs` row.
 */
export class ReviewHost {
  readonly events = new EventBus<ReviewEvent>()
  readonly runs: ReviewRuns
  private readonly limits: Required<Pick<ReviewHostLimits, 'killGraceMs' | 'stopGraceMs' | 'maxConsecutiveFailures'>> & ReviewHostLimits
  private queue: ReviewJob[] = []
  /** Jobs that must not be merged with others (see enqueue's `coalesce`). */
  private readonly standalone = new Set<string>()
  private current: ActiveRun | null = null
  private readonly results = new Map<string, ReviewResult>()
  private readonly waiters = new Map<string, Array<(result: ReviewResult) => void>>()
  private idleWaiters: Array<() => void> = []
  private failures = 0
  private isPaused = false
  private pauseReason: string | null = null
  private closed = false
  /** Rows of earlier processes this host found abandoned and ended when it was made. */
  readonly recovered: StaleRecovery

  constructor(private readonly options: ReviewHostOptions) {
    this.runs = new ReviewRuns(options.core.db)
    this.limits = { killGraceMs: 5_000, stopGraceMs: 1_000, maxConsecutiveFailures: 3, ...options.limits }
    this.recovered = this.safely(() => this.runs.recoverStale({ budgetMs: this.budgetMs() })) ?? { crashed: [], failed: [] }
  }

  private get nativeBinding(): string | undefined {
    return this.options.nativeBinding ?? this.options.core.nativeBinding
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
   */
  enqueue(input: Omit<ReviewJob, 'reviewId'>, options: { coalesce?: boolean } = {}): string {
    const reviewId = randomUUID()
    try {
      if (this.closed || !this.options.core.config.get().learning.enabled) {
        this.settle(reviewId, 'skipped')
        return reviewId
      }
      const parsed = reviewJobSchema.safeParse({ ...input, reviewId })
      if (!parsed.success) {
        const error = `The review job is invalid: ${parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ')}`
        this.events.emit({ type: 'review_failed', reviewId, sessionId: input.sessionId ?? null, error, crashed: false })
        this.settle(reviewId, 'failed')
        return reviewId
      }
      const job = { ...parsed.data, kinds: this.orderKinds(parsed.data.kinds) }
      const coalesce = options.coalesce !== false
      if (!coalesce) this.standalone.add(job.reviewId)
      const waiting =
        job.sessionId === null || !coalesce
          ? undefined
          : this.queue.find((queued) => queued.sessionId === job.sessionId && !this.standalone.has(queued.reviewId))
      const target = waiting ? this.merge(waiting, job) : job
      if (!waiting) this.queue.push(job)
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
    if (this.current?.job.reviewId === reviewId || this.queue.some((job) => job.reviewId === reviewId)) {
      return new Promise((resolve) => this.waiters.set(reviewId, [...(this.waiters.get(reviewId) ?? []), resolve]))
    }
    const row = this.safely(() => this.runs.get(reviewId))
    const status = row?.status
    return Promise.resolve(status && status !== 'queued' && status !== 'running' ? status : 'skipped')
  }

  /** Resolves when no review runs and none will start on its own (the queue is empty, or reviews are paused). */
  whenIdle(): Promise<void> {
    if (this.isIdle()) return Promise.resolve()
    return new Promise((resolve) => this.idleWaiters.push(resolve))
  }

  /** Lets the running review finish but starts no other until {@link resume}. */
  pause(reason = 'Background learning is paused.'): void {
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

  /** Drops queued reviews, stops the running worker (politely, then by force) and waits for it to exit. */
  async close(): Promise<void> {
    if (this.closed) return this.current?.exited
    this.closed = true
    for (const job of this.queue.splice(0)) {
      this.safely(() => this.runs.failed(job.reviewId, 'failed', 'Cairn closed before this review started.'))
      this.settle(job.reviewId, 'skipped')
    }
    const run = this.current
    if (run) {
      run.stopping = true
      if (run.handle) {
        const handle = run.handle
        this.send(handle, { protocol: REVIEW_PROTOCOL, version: REVIEW_PROTOCOL_VERSION, type: 'shutdown' })
        const kill = setTimeout(() => this.safely(() => handle.kill()), this.limits.stopGraceMs)
        await Promise.race([run.exited, new Promise((wake) => setTimeout(wake, this.limits.stopGraceMs + 4_000))])
        clearTimeout(kill)
      }
    }
    this.checkIdle()
  }

  /**
   * For a process about to exit (the one-shot CLI without --wait): once the running worker has its
   * start message, let it finish on its own (it must have been started `detached`); queued reviews
   * are dropped and recorded as not started. The host is closed afterwards and keeps no timer, listener
   * or database write for the released worker (which records its own outcome), so the caller may close
   * the core and exit at once.
   */
  async release(): Promise<void> {
    if (this.closed) return
    this.closed = true
    for (const job of this.queue.splice(0)) {
      this.safely(() => this.runs.failed(job.reviewId, 'failed', 'Cairn exited before this review started.'))
      this.settle(job.reviewId, 'skipped')
    }
    const run = this.current
    if (!run?.handle) return this.checkIdle()
    await Promise.race([run.started, run.exited])
    if (this.current === run && this.options.detached) {
      clearTimeout(run.timer)
      run.released = true
      this.safely(() => run.handle?.release?.())
      this.current = null
    }
    this.checkIdle()
  }

  private orderKinds(kinds: ReviewKind[]): ReviewKind[] {
    return KIND_ORDER.filter((kind) => kinds.includes(kind))
  }

  /** A later trigger for a session already waiting: one job that sees the newest messages and every reason. */
  private merge(queued: ReviewJob, next: ReviewJob): ReviewJob {
    queued.kinds = this.orderKinds(union(queued.kinds, next.kinds))
    queued.reasons = union(queued.reasons, next.reasons)
    queued.messages = next.messages
    queued.skillsUsed = union(queued.skillsUsed, next.skillsUsed)
    return queued
  }

  private pump(): void {
    if (this.current || this.isPaused || this.closed) return this.checkIdle()
    const job = this.queue.shift()
    if (!job) return this.checkIdle()
    this.start(job)
  }

  private start(job: ReviewJob): void {
    const config = this.options.core.config.get()
    const timeoutMs = this.budgetMs()
    const run = newRun(job, timeoutMs)
    this.current = run
    let handle: WorkerHandle
    try {
      handle = this.options.spawn()
    } catch (error) {
      this.end(run, { status: 'crashed', error: `Could not start the review worker: ${(error as Error).message}` })
      return
    }
    run.handle = handle
    this.safely(() => this.runs.started(job.reviewId, handle.pid ?? null))
    this.events.emit({ type: 'review_started', reviewId: job.reviewId, sessionId: job.sessionId, kinds: job.kinds, reasons: job.reasons, pid: handle.pid ?? null })
    // Until the worker holds the review lock: the lock wait (bounded by the budget) plus the budget.
    this.killAfter(run, 2 * timeoutMs + this.limits.killGraceMs, true)
    const startMessage = (): HostMessage =>
      buildStartMessage({
        home: this.options.core.paths.root,
        provider: this.options.provider(),
        job,
        timeoutMs,
        maxIterations: this.limits.maxIterations ?? config.learning.reviewMaxIterations,
        allowSkillCreation: config.learning.allowSkillCreation,
        detached: this.options.detached ?? false,
        nativeBinding: this.nativeBinding
      })
    handle.onMessage((raw) => this.onWorkerMessage(run, raw, startMessage))
    handle.onExit((code, signal) => this.onWorkerExit(run, code, signal))
  }

  private budgetMs(): number {
    return this.limits.timeoutMs ?? this.options.core.config.get().learning.reviewTimeoutMs
  }

  /** (Re)arms the run's kill timer; `timedOut` says whether firing means the budget ran out. */
  private killAfter(run: ActiveRun, ms: number, timedOut: boolean): void {
    clearTimeout(run.timer)
    run.timer = setTimeout(() => {
      if (timedOut) run.timedOut = true
      this.safely(() => run.handle?.kill())
    }, ms)
  }

  private onWorkerMessage(run: ActiveRun, raw: unknown, startMessage: () => HostMessage): void {
    const parsed = workerMessageSchema.safeParse(raw)
    if (!parsed.success || run !== this.current || run.released) return // not ours or not understood: dropped, never guessed at
    const message = parsed.data
    const { reviewId } = run.job
    if (message.type !== 'ready' && message.reviewId !== reviewId && message.reviewId !== '') return
    switch (message.type) {
      case 'ready':
        if (run.stopping || !run.handle) return
        try {
          this.send(run.handle, startMessage())
          run.markStarted()
        } catch (error) {
          run.error = { code: 'provider', message: `Could not read the provider settings: ${(error as Error).message}` }
          this.safely(() => run.handle?.kill())
        }
        return
      case 'progress':
        // The worker's budget starts now; so does the host's.
        if (message.stage === 'locked') this.killAfter(run, run.timeoutMs + this.limits.killGraceMs, true)
        this.events.emit({ type: 'review_progress', reviewId, stage: message.stage, ...(message.detail !== undefined ? { detail: message.detail } : {}) })
        return
      case 'action':
        this.events.emit({ type: 'review_action', reviewId, entry: message.entry })
        return
      case 'done':
        run.outcome = message.outcome
        // The work is saved; a worker that then fails to exit must not hold up the next review.
        this.killAfter(run, this.limits.killGraceMs, false)
        return
      case 'error':
        run.error ??= { code: message.code, message: message.message }
        return
    }
  }

  private onWorkerExit(run: ActiveRun, code: number | null, signal: string | null): void {
    clearTimeout(run.timer)
    if (run.released) return // the worker records its own ending; the core may be closed by now
    this.end(run, exitEnding(run, code, signal, run.outcome ? undefined : this.safely(() => run.handle?.output?.())))
  }

  private end(run: ActiveRun, ending: RunEnding): void {
    clearTimeout(run.timer)
    const { job } = run
    if (ending.status === 'done' && run.outcome) {
      this.failures = 0
      this.safely(() => this.runs.finished(job.reviewId, run.outcome!))
      this.events.emit({ type: 'review_finished', reviewId: job.reviewId, sessionId: job.sessionId, outcome: run.outcome })
    } else {
      const error = ending.error ?? 'The review failed.'
      this.safely(() => this.runs.failed(job.reviewId, ending.status as ReviewFailureStatus, error))
      this.events.emit({ type: 'review_failed', reviewId: job.reviewId, sessionId: job.sessionId, error, crashed: ending.status === 'crashed' })
      if (ending.status === 'crashed' || ending.status === 'timeout') this.failures++
      if (this.failures >= this.limits.maxConsecutiveFailures && !this.isPaused && !this.closed) {
        this.pause(
          `Background learning is paused: the last ${this.failures} reviews crashed or ran out of time (latest: ${error.split('\n')[0]}). ` +
            'Your chats are not affected. Resume learning when you are ready; it also resumes the next time Cairn starts.'
        )
      }
    }
    this.current = null
    run.markStarted()
    run.markExited()
    this.settle(job.reviewId, ending.status)
    this.pump()
  }

  private send(handle: WorkerHandle, message: HostMessage): void {
    this.safely(() => handle.send(message))
  }

  private settle(reviewId: string, result: ReviewResult): void {
    this.standalone.delete(reviewId)
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

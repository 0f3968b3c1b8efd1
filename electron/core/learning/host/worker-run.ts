import {
  REVIEW_PROTOCOL,
  REVIEW_PROTOCOL_VERSION,
  workerMessageSchema,
  type HostMessage,
  type ReviewEvent,
  type ReviewJob
} from '../../../../shared/review-protocol'
import { startRun, transition, type RunEffect, type RunEnding, type RunEvent, type RunLimits, type RunPhase, type RunState } from './review-run-state'
import type { WorkerHandle } from './spawn-worker'

export interface WorkerRunCallbacks {
  /** A progress or action frame of the worker, as the event to pass on. */
  report(event: ReviewEvent): void
  /** How the run ended; `record`: the host writes it to `review_runs`. Never called once released. */
  end(ending: RunEnding, record: boolean): void
}

/**
 * One review worker process, driven by the run state machine (review-run-state.ts): every frame,
 * the exit, the deadline and the host's stop or release go through {@link transition}, and this
 * carries out the effects (frames to send, the one deadline timer, kill, release).
 */
export class WorkerRun {
  readonly startedAt = Date.now()
  private state: RunState
  private readonly firstEffects: RunEffect[]
  private timer: NodeJS.Timeout | undefined
  private watchers: Array<{ until: (phase: RunPhase) => boolean; wake: () => void }> = []

  constructor(
    readonly job: ReviewJob,
    private readonly handle: WorkerHandle,
    private readonly startFrame: HostMessage,
    limits: RunLimits,
    private readonly callbacks: WorkerRunCallbacks
  ) {
    const { state, effects } = startRun(limits)
    this.state = state
    this.firstEffects = effects
  }

  /** Starts supervising the process (its frames, its exit, the ready deadline). The end callback may run at once, if it has already exited. */
  begin(): void {
    for (const effect of this.firstEffects) this.apply(effect)
    this.handle.onMessage((raw) => this.onFrame(raw))
    this.handle.onExit((code, signal) => this.dispatch({ type: 'exit', code, signal, output: this.guard(() => this.handle.output?.()) }))
  }

  get phase(): RunPhase {
    return this.state.phase
  }

  /** Asks the worker to shut down (killed after the stop grace); false if it is past stopping. */
  stop(): boolean {
    return this.dispatch({ type: 'stop' })
  }

  /** Lets the worker finish on its own; false if it cannot be let go (no start message yet, stopping, or ended). */
  release(): boolean {
    return this.dispatch({ type: 'release' })
  }

  /** Resolves once the run's phase satisfies `until`. */
  when(until: (phase: RunPhase) => boolean): Promise<void> {
    if (until(this.state.phase)) return Promise.resolve()
    return new Promise((wake) => this.watchers.push({ until, wake }))
  }

  /** Resolves once the run's phase satisfies `until`, or after `ms` at the latest (the timer is cleared either way). */
  async within(ms: number, until: (phase: RunPhase) => boolean): Promise<void> {
    let timer: NodeJS.Timeout | undefined
    await Promise.race([this.when(until), new Promise<void>((wake) => (timer = setTimeout(wake, ms)))])
    clearTimeout(timer)
  }

  private onFrame(raw: unknown): void {
    const parsed = workerMessageSchema.safeParse(raw)
    if (!parsed.success) return // not understood: dropped, never guessed at
    const message = parsed.data
    const { reviewId } = this.job
    if (message.type !== 'ready' && message.reviewId !== reviewId && message.reviewId !== '') return
    switch (message.type) {
      case 'ready':
        return void this.dispatch({ type: 'ready' })
      case 'progress': {
        const detail = message.detail !== undefined ? { detail: message.detail } : {}
        const event: ReviewEvent = { type: 'review_progress', reviewId, stage: message.stage, ...detail }
        return void this.dispatch({ type: message.stage === 'locked' ? 'locked' : 'progress' }, event)
      }
      case 'action':
        return void this.dispatch({ type: 'action' }, { type: 'review_action', reviewId, entry: message.entry })
      case 'done':
        return void this.dispatch({ type: 'done', outcome: message.outcome, recorded: message.recorded ?? false })
      case 'error':
        return void this.dispatch({ type: 'error', code: message.code, message: message.message, failure: message.failure, recorded: message.recorded ?? false })
    }
  }

  /** Feeds one event to the state machine and carries out what it says; false if it refused the event. */
  private dispatch(event: RunEvent, report?: ReviewEvent): boolean {
    const next = transition(this.state, event)
    if (!next.ok) return false
    this.state = next.state
    for (const effect of next.effects) this.apply(effect, report)
    const woken = this.watchers.filter((watcher) => watcher.until(this.state.phase))
    this.watchers = this.watchers.filter((watcher) => !woken.includes(watcher))
    for (const watcher of woken) watcher.wake()
    return true
  }

  private apply(effect: RunEffect, report?: ReviewEvent): void {
    switch (effect.type) {
      case 'sendStart':
        return this.send(this.startFrame)
      case 'sendShutdown':
        return this.send({ protocol: REVIEW_PROTOCOL, version: REVIEW_PROTOCOL_VERSION, type: 'shutdown' })
      case 'armDeadline':
        clearTimeout(this.timer)
        this.timer = setTimeout(() => this.dispatch({ type: 'deadline' }), effect.ms)
        return
      case 'clearDeadline':
        return clearTimeout(this.timer)
      case 'kill':
        return void this.guard(() => this.handle.kill())
      case 'forward':
        if (report) this.callbacks.report(report)
        return
      case 'letGo':
        return void this.guard(() => this.handle.release?.())
      case 'end':
        return this.callbacks.end(effect.ending, effect.record)
    }
  }

  private send(message: HostMessage): void {
    this.guard(() => this.handle.send(message))
  }

  /** A worker that is already gone must not break the host. */
  private guard<T>(fn: () => T): T | undefined {
    try {
      return fn()
    } catch (error) {
      console.error('cairn: review worker call failed:', error)
      return undefined
    }
  }
}

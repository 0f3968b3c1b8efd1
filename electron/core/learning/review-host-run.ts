import { REVIEW_PROTOCOL, REVIEW_PROTOCOL_VERSION, type HostMessage, type ReviewJob, type ReviewKind, type ReviewOutcome } from '../../../shared/review-protocol'
import type { ProviderSettings } from '../provider/provider-settings'
import type { WorkerHandle } from './spawn-worker'

export type ReviewResult = 'done' | 'failed' | 'timeout' | 'crashed' | 'skipped'

/** How one run ended, as the host records it. */
export interface RunEnding {
  status: Exclude<ReviewResult, 'skipped'>
  error?: string
}

/** The review a host is running now: its worker and what the worker has said so far. */
export interface ActiveRun {
  job: ReviewJob
  startedAt: number
  /** The review's time budget, counted from when the worker holds the review lock. */
  timeoutMs: number
  handle: WorkerHandle | null
  outcome: ReviewOutcome | null
  error: { code: string; message: string } | null
  timedOut: boolean
  stopping: boolean
  /** Left to finish on its own (`ReviewHost.release`): the host no longer touches it or the database for it. */
  released: boolean
  timer: NodeJS.Timeout | undefined
  exited: Promise<void>
  markExited: () => void
  /** Resolves once the worker has its start message (or the run ended without one). */
  started: Promise<void>
  markStarted: () => void
}

/** Worker error codes that mean the process itself is broken (they count towards pausing, like crashes). */
const CRASH_CODES = new Set(['uncaught', 'protocol_mismatch'])
const OUTPUT_IN_ERROR = 1_500

export function newRun(job: ReviewJob, timeoutMs: number): ActiveRun {
  let markExited = () => {}
  const exited = new Promise<void>((resolve) => (markExited = resolve))
  let markStarted = () => {}
  const started = new Promise<void>((resolve) => (markStarted = resolve))
  return {
    job,
    startedAt: Date.now(),
    timeoutMs,
    handle: null,
    outcome: null,
    error: null,
    timedOut: false,
    stopping: false,
    released: false,
    timer: undefined,
    exited,
    markExited,
    started,
    markStarted
  }
}

/**
 * What a worker's exit means: done if it sent its outcome; a timeout if it ran out of time; a plain
 * failure if it reported one (a provider error, the lock held elsewhere too long); otherwise a crash.
 */
export function exitEnding(run: ActiveRun, code: number | null, signal: string | null, output: string | undefined): RunEnding {
  if (run.outcome) return { status: 'done' }
  if (run.stopping) return { status: 'failed', error: 'Stopped because Cairn was closing.' }
  if (run.timedOut || run.error?.code === 'timeout') {
    return { status: 'timeout', error: run.error?.message ?? `The review took longer than its ${Number((run.timeoutMs / 1000).toFixed(1))} s budget and was stopped.` }
  }
  if (run.error && !CRASH_CODES.has(run.error.code)) return { status: 'failed', error: run.error.message }
  const how = signal ? `was killed (${signal})` : `exited with code ${code}`
  const tail = output?.trim() ? `\nLast output:\n${output.trim().slice(-OUTPUT_IN_ERROR)}` : ''
  const reported = run.error ? ` ${run.error.message}` : ''
  return { status: 'crashed', error: `The review worker ${how} before finishing.${reported}${tail}` }
}

export interface StartMessageInput {
  home: string
  provider: ProviderSettings
  job: ReviewJob
  timeoutMs: number
  maxIterations: number
  allowSkillCreation: boolean
  detached: boolean
  nativeBinding: string | undefined
}

export function buildStartMessage(input: StartMessageInput): HostMessage {
  const { provider } = input
  return {
    protocol: REVIEW_PROTOCOL,
    version: REVIEW_PROTOCOL_VERSION,
    type: 'start',
    home: input.home,
    provider: {
      baseURL: provider.baseURL,
      model: provider.model,
      apiKey: provider.apiKey,
      preset: provider.preset,
      requestTimeoutMs: provider.requestTimeoutMs,
      maxRetries: provider.maxRetries
    },
    job: input.job,
    limits: { maxIterations: input.maxIterations, timeoutMs: input.timeoutMs },
    allowSkillCreation: input.allowSkillCreation,
    detached: input.detached,
    ...(input.nativeBinding ? { nativeBinding: input.nativeBinding } : {})
  }
}

/** What this host is doing now (its own state, not other processes' `review_runs` rows). */
export interface ReviewHostStatus {
  running: { reviewId: string; sessionId: string | null; kinds: ReviewKind[]; reasons: string[]; startedAt: number } | null
  queued: number
  paused: boolean
  /** Why reviews are paused, as the host said in its `reviews_paused` event; null when not paused. */
  pausedReason: string | null
}

export interface ReviewHostLimits {
  /** Time budget of one review; default: config `learning.reviewTimeoutMs`. */
  timeoutMs?: number
  /** Model calls per review; default: config `learning.reviewMaxIterations`. */
  maxIterations?: number
  /**
   * The worker stops itself at the budget (counted from taking the review lock); past it by this much,
   * the host kills it. Before the worker holds the lock the host allows the lock wait (at most one budget) too.
   */
  killGraceMs?: number
  /** On close: how long a worker gets to exit after `shutdown` before it is killed. */
  stopGraceMs?: number
  /** Crashes or timeouts in a row after which reviews pause until {@link ReviewHost.resume}. */
  maxConsecutiveFailures?: number
}

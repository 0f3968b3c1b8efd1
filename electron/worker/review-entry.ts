/**
 * The background review worker: one process per review. Forked from source through tsx (CLI, tests,
 * browser mode) or built by electron-vite and started with `utilityProcess.fork` in the app, so it
 * must never import electron (nor anything that does).
 *
 * Protocol (shared/review-protocol.ts): sends `ready`; on `start` opens its own CairnCore on the
 * given home, runs the review, streams `progress` / `action`, sends `done` or `error`, exits 0.
 * A frame of another protocol or version → `error` + exit 70; an invalid frame → `error` + exit 65;
 * past `limits.timeoutMs` (counted from taking the review lock) → `error` (code `timeout`) + exit 124;
 * an uncaught exception → exit 73 (see WORKER_EXIT). The budget is the worker's to keep: the host
 * only kills a worker that overruns it by far. It reports exactly one ending (`done` or a final
 * `error`); a `detached` worker, which may outlive its host, records that ending in `review_runs`
 * itself first and says so (`recorded`), so the host never writes it too (see review-run-state.ts).
 */
import { existsSync } from 'node:fs'
import { join } from 'node:path'
import { providerPresets, type ProviderPreset } from '../../shared/config'
import {
  REVIEW_PROTOCOL,
  REVIEW_PROTOCOL_VERSION,
  hostMessageSchema,
  type ParsedHostMessage,
  type ReviewOutcome,
  type WorkerMessage
} from '../../shared/review-protocol'
import { reviewFailureText } from '../../shared/i18n/describe-review-failure'
import { parseReviewFailure, type ReviewFailure } from '../../shared/review-failures'
import type { DistributiveOmit } from '../../shared/type-utils'
import { issueLines } from '../../shared/zod-issues'
import { homePaths } from '../core/config/home'
import { LogFile, logLine } from '../core/fs/log-file'
import { ChatProvider } from '../core/provider/provider'
import { ProviderError } from '../core/provider/provider-errors'
import { CairnCore } from '../core/cairn'
import { LockTimeoutError } from '../core/fs/lock'
import { ReviewCancelledError, reviewDepsOf, runReview } from '../core/learning/worker/review-runner'
import { ReviewRuns, type ReviewFailureStatus } from '../core/ledger/review-runs'
import { WORKER_EXIT, createWorkerChannel } from '../core/learning/worker/worker-channel'

/** After a timeout or shutdown, how long in-flight writes get to finish (and release their locks). */
const SETTLE_MS = 2_000

type StartMessage = Extract<ParsedHostMessage, { type: 'start' }>
type Outgoing = DistributiveOmit<WorkerMessage, 'protocol' | 'version' | 'reviewId'>

const channel = createWorkerChannel()
let reviewId = ''
let running: { controller: AbortController; done: Promise<void> } | null = null
let exiting = false
/** Set by a `detached` start: the host may be gone by the end, so the worker records its own ending. */
let detached = false
/** The worker's own core, while open (a crash records through it). */
let core: CairnCore | null = null
/** How the review ended, once reported: whatever happens after (a failing close, a late timer) changes nothing. */
let reported: 'done' | 'failed' | null = null
/** `<home>/logs/review.log`, once the start message says which home. */
let logFile: LogFile | null = null

function logLineOf(level: 'info' | 'error', message: string, error?: unknown): void {
  logFile?.append(logLine(level, `[review ${reviewId || '?'} pid ${process.pid}] ${message}`, error))
}

function send(message: Outgoing): Promise<void> {
  return channel.send({ protocol: REVIEW_PROTOCOL, version: REVIEW_PROTOCOL_VERSION, reviewId, ...message })
}

async function exit(code: number): Promise<never> {
  exiting = true
  process.exit(code)
}

/** Stops a running review, gives in-flight writes a moment, then exits. */
async function stop(code: number): Promise<never> {
  if (running) {
    running.controller.abort()
    await Promise.race([running.done, new Promise((wake) => setTimeout(wake, SETTLE_MS))])
  }
  return exit(code)
}

class MissingHomeError extends Error {
  constructor(home: string) {
    super(`There is no Cairn data home at ${home} (no state.db). The host must pass the home its own core opened.`)
    this.name = 'MissingHomeError'
  }
}

function errorCode(error: unknown): string {
  if (error instanceof MissingHomeError) return 'home_missing'
  if (error instanceof ProviderError) return `provider_${error.code}`
  if (error instanceof LockTimeoutError) return 'lock_timeout'
  if (error instanceof ReviewCancelledError) return 'cancelled'
  return 'internal'
}

async function onFrame(raw: unknown): Promise<void> {
  if (exiting) return
  const frame = (raw && typeof raw === 'object' ? raw : {}) as { protocol?: unknown; version?: unknown; type?: unknown }
  if (frame.protocol !== REVIEW_PROTOCOL || frame.version !== REVIEW_PROTOCOL_VERSION) {
    await reportError(
      'protocol_mismatch',
      `The review worker speaks ${REVIEW_PROTOCOL} v${REVIEW_PROTOCOL_VERSION} but got a frame of ${String(frame.protocol)} v${String(frame.version)}. The app and its worker come from different builds: reinstall or restart Cairn.`,
      'crashed'
    )
    await stop(WORKER_EXIT.protocolMismatch)
    return
  }
  const parsed = hostMessageSchema.safeParse(raw)
  if (!parsed.success) {
    await reportError('invalid_frame', `The review worker rejected a '${String(frame.type)}' frame: ${issueLines(parsed.error, { root: 'frame', max: 8 }).join('; ')}.`, 'failed')
    await stop(WORKER_EXIT.invalidFrame)
    return
  }
  const message = parsed.data
  if (message.type === 'shutdown') {
    await stop(0)
    return
  }
  if (running) {
    await send({ type: 'error', code: 'busy', message: 'This worker is already running a review; start each review in a fresh worker.' })
    return
  }
  let settle = () => {}
  running = { controller: new AbortController(), done: new Promise<void>((resolve) => (settle = resolve)) }
  try {
    await review(message, running.controller)
  } finally {
    settle()
  }
}

async function review(start: StartMessage, controller: AbortController): Promise<void> {
  reviewId = start.job.reviewId
  detached = start.detached
  const budgetSeconds = Number((start.limits.timeoutMs / 1000).toFixed(1))
  let timedOut = false
  let locked = false
  let timer: NodeJS.Timeout | undefined
  // The budget counts from taking the review lock: time spent waiting for another process's review is not this one's.
  const startBudget = () => {
    timer = setTimeout(() => {
      timedOut = true
      const message = `The review took longer than its ${budgetSeconds} s budget (learning.reviewTimeoutMs) and was stopped.`
      void reportError('timeout', message, 'timeout', { code: 'over_budget', seconds: budgetSeconds }).then(() => stop(WORKER_EXIT.timeout))
    }, start.limits.timeoutMs)
  }

  try {
    // A wrong path must not quietly create a second, empty data home.
    if (!existsSync(join(start.home, 'state.db'))) throw new MissingHomeError(start.home)
    // Only a home that exists gets a log (it must not be created by logging).
    logFile = new LogFile(homePaths(start.home).reviewLog)
    logLineOf('info', `started for session ${start.job.sessionId}${detached ? ' (detached)' : ''}`)
    core = await CairnCore.open({ home: start.home, nativeBinding: start.nativeBinding })
    const preset: ProviderPreset = (providerPresets as readonly string[]).includes(start.provider.preset)
      ? (start.provider.preset as ProviderPreset)
      : 'custom'
    const provider = new ChatProvider({ ...start.provider, preset })
    const outcome = await runReview({
      deps: reviewDepsOf(core),
      provider,
      job: start.job,
      maxIterations: start.limits.maxIterations,
      allowSkillCreation: start.allowSkillCreation,
      signal: controller.signal,
      // Waiting for the lock is bounded by the budget too; giving up is a plain failure, not a timeout.
      lockTimeoutMs: start.limits.timeoutMs,
      onLocked: () => {
        locked = true
        startBudget()
        // The host's run moves from waiting for the lock to running on this stage.
        void send({ type: 'progress', stage: 'locked', detail: 'holds the review lock; the time budget starts now' })
      },
      onProgress: (stage, detail) => void send({ type: 'progress', stage, ...(detail !== undefined ? { detail } : {}) }),
      onAction: (entry) => void send({ type: 'action', entry })
    })
    clearTimeout(timer)
    await reportDone(outcome)
  } catch (error) {
    clearTimeout(timer)
    if (timedOut) return // the timer already reported and is exiting
    const lockHeld: ReviewFailure | null = error instanceof LockTimeoutError && !locked ? { code: 'lock_held', seconds: budgetSeconds } : null
    const message = lockHeld ? reviewFailureText(lockHeld) : (error as Error).message || String(error)
    const failure = lockHeld ?? parseReviewFailure(message)
    // A cancel is the host's doing (shutdown, or it went away): the host judges that ending, not the worker.
    await reportError(errorCode(error), message, error instanceof ReviewCancelledError ? null : 'failed', failure)
  }
  await core?.close().catch(() => {})
  core = null
  await exit(reported === 'done' ? 0 : WORKER_EXIT.failed)
}

async function reportDone(outcome: ReviewOutcome): Promise<void> {
  if (reported) return
  reported = 'done'
  logLineOf('info', `done: ${outcome.entries.length} change(s), ${outcome.proposals?.length ?? 0} proposal(s), ${outcome.toolCalls} tool call(s) in ${outcome.iterations} model call(s)`)
  const recorded = ownRow((runs) => runs.finished(reviewId, outcome))
  await send({ type: 'done', outcome, recorded })
}

/**
 * Reports the review's failure, once. `status`: how a detached worker records it itself; null for
 * an ending only the host can judge (it asked the worker to stop, or is gone).
 */
async function reportError(code: string, message: string, status: ReviewFailureStatus | null, failure: ReviewFailure = parseReviewFailure(message)): Promise<void> {
  if (reported) return
  reported = 'failed'
  logLineOf('error', `${status ?? 'stopped'} (${code}): ${message}`)
  const recorded = status !== null && ownRow((runs) => runs.failed(reviewId, status, failure, { error: message }))
  await send({ type: 'error', code, message, failure, recorded })
}

/**
 * A detached worker owns its run's ending (its host may be gone by then): it writes it, best
 * effort, and tells the host it did. Never throws; false when this worker does not or could not write.
 */
function ownRow(write: (runs: ReviewRuns) => void): boolean {
  if (!detached || !core || !reviewId) return false
  try {
    write(new ReviewRuns(core.db))
    return true
  } catch {
    return false // the database may be the thing that broke; the next host marks the row as crashed
  }
}

/** A bug: report it (best effort, the channel may be gone too) and exit non-zero. */
function crash(reason: unknown): void {
  const error = reason instanceof Error ? reason : new Error(String(reason))
  process.stderr.write(`review worker: ${error.stack ?? error.message}\n`)
  logLineOf('error', 'crashed', error)
  const fallback = setTimeout(() => process.exit(WORKER_EXIT.uncaught), 500)
  void reportError('uncaught', `The review worker crashed: ${error.message}`, 'crashed').finally(() => {
    clearTimeout(fallback)
    process.exit(WORKER_EXIT.uncaught)
  })
}

process.on('uncaughtException', crash)
process.on('unhandledRejection', crash)

channel.onMessage((raw) => void onFrame(raw))
// The host is gone: unless it asked the review to finish on its own, stop as soon as it is safe.
channel.onDisconnect(() => {
  if (!(detached && running)) void stop(0)
})
// A detached worker outlives the host's end of the pipes: writing to them must not crash it.
process.stdout.on('error', () => {})
process.stderr.on('error', () => {})
void send({ type: 'ready', pid: process.pid })

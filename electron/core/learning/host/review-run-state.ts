import type { ReviewOutcome } from '../../../../shared/review-protocol'
import { reviewFailureText } from '../../../../shared/i18n/describe-review-failure'
import { parseReviewFailure, type ReviewFailure } from '../../../../shared/review-failures'
import type { ReviewFailureStatus } from '../../ledger/review-runs'

/**
 * The life of one review worker process as its host sees it: one state and one transition
 * function, so every way a run can go is written here and nowhere else. The host feeds it what
 * happens (the worker's frames, its exit, the deadline timer, its own close/release) and carries
 * out the effects it returns; a refused event changes nothing.
 *
 *   spawning ─ready→ waitingLock ─locked→ running ─done→ finishing ─exit→ ended
 *   any of those ─stop→ stopping ─exit→ ended       waitingLock | running | finishing ─release→ released
 *   any live phase ─exit→ ended (a crash, a kill, the worker's own timeout or failure)
 *
 * Time: the worker owns the review's budget (it starts its clock once it holds the review lock, so
 * waiting for another review is never counted). The host keeps one deadline at a time: while
 * spawning, a short ready deadline (a worker that cannot even load must not hold up the queue, or a
 * releasing host, for the length of a review); from the start message, a backstop past the longest
 * the worker may legitimately take (lock wait + budget + grace); once the worker has sent its outcome
 * or been told to shut down, a short grace to exit. When a deadline passes the host kills the process.
 *
 * Who writes a run's `review_runs` row is ruled in ledger/review-runs.ts; here: an attached run's
 * ending is the host's (`end` with `record: true`); a detached worker records the endings it reports
 * itself and says so (`recorded`), and then `end` says `record: false`; a worker gone without a word
 * (a kill, an exit, a stop on close) left its row to the host. A released run is the worker's alone.
 */
export type RunPhase = 'spawning' | 'waitingLock' | 'running' | 'finishing' | 'stopping' | 'released' | 'ended'

/** How a run ended; a failure as data (`failure`) and in English with the worker's last output (`error`, for logs). */
export type RunEnding = { status: 'done'; outcome: ReviewOutcome } | FailedEnding
export type FailedEnding = { status: ReviewFailureStatus; failure: ReviewFailure; error: string }

/** A failed ending: its failure, and the English of it (plus whatever `tail` adds, the worker's output). */
export function failedEnding(status: ReviewFailureStatus, failure: ReviewFailure, tail = ''): FailedEnding {
  return { status, failure, error: `${reviewFailureText(failure)}${tail}` }
}

export interface RunLimits {
  /** How long a new worker has to say `ready` (load its runtime) before it is killed. */
  readyMs: number
  /** The review's time budget, which the worker enforces from the moment it holds the review lock. */
  budgetMs: number
  /** How long the worker waits for the review lock before it gives up (a plain failure, not a timeout). */
  lockWaitMs: number
  /** Past the worker's own deadlines, and after its outcome, how long it has to exit before it is killed. */
  killGraceMs: number
  /** After `shutdown`: how long it has to exit before it is killed. */
  stopGraceMs: number
}

/** An error the worker reported; `recorded`: it wrote the ending to `review_runs` itself. */
export interface WorkerError {
  code: string
  message: string
  /** The message as data; an older worker's is read back from its English. */
  failure: ReviewFailure
  recorded: boolean
}

export interface RunState {
  readonly phase: RunPhase
  readonly limits: RunLimits
  readonly outcome: ReviewOutcome | null
  /** The worker wrote its outcome to `review_runs` itself. */
  readonly outcomeRecorded: boolean
  /** The first error the worker reported. */
  readonly error: WorkerError | null
  /**
   * Which deadline killed the worker before it sent an outcome (null: none did, or it was being
   * stopped, or its outcome was in): `ready`, it never said `ready`; `backstop`, it overran.
   */
  readonly killedAt: 'ready' | 'backstop' | null
  readonly ending: RunEnding | null
}

export type RunEvent =
  | { type: 'ready' }
  /** The worker holds the review lock: the review proper (and its budget) begins. */
  | { type: 'locked' }
  | { type: 'progress' }
  | { type: 'action' }
  | { type: 'done'; outcome: ReviewOutcome; recorded: boolean }
  | { type: 'error'; code: string; message: string; failure?: ReviewFailure; recorded: boolean }
  /** The deadline the last `armDeadline` set has passed. */
  | { type: 'deadline' }
  /** The host is closing: the worker is asked to stop. */
  | { type: 'stop' }
  /** The host is about to exit: a detached worker goes on alone. */
  | { type: 'release' }
  | { type: 'exit'; code: number | null; signal: string | null; output?: string }

export type RunEffect =
  | { type: 'sendStart' }
  | { type: 'sendShutdown' }
  /** (Re)sets the run's one deadline timer; when it fires, the host feeds back `deadline`. */
  | { type: 'armDeadline'; ms: number }
  | { type: 'clearDeadline' }
  | { type: 'kill' }
  /** Pass the worker's frame on (as a `review_progress` or `review_action` event). */
  | { type: 'forward' }
  /** Let the process outlive the host, and forget it. */
  | { type: 'letGo' }
  /** Announce the ending; `record`: the host writes it to `review_runs` (the worker did not). */
  | { type: 'end'; ending: RunEnding; record: boolean }

export type Transition = { ok: true; state: RunState; effects: RunEffect[] } | { ok: false; state: RunState; refused: string }

/** Worker error codes that mean the process itself is broken (they count towards pausing, like crashes). */
const CRASH_CODES = new Set(['uncaught', 'protocol_mismatch'])
const OUTPUT_IN_ERROR = 1_500
const STOPPED: ReviewFailure = { code: 'stopped' }
export const STOPPED_ERROR = reviewFailureText(STOPPED)

/** The longest a worker may take before it must have ended by itself: the lock wait, the budget, a grace. */
export function backstopMs(limits: RunLimits): number {
  return limits.lockWaitMs + limits.budgetMs + limits.killGraceMs
}

/**
 * A worker process was just started: it has the ready deadline to say `ready`. The backstop is
 * armed only with the start message, when the worker's own clocks (lock wait, budget) begin.
 */
export function startRun(limits: RunLimits): { state: RunState; effects: RunEffect[] } {
  const state: RunState = { phase: 'spawning', limits, outcome: null, outcomeRecorded: false, error: null, killedAt: null, ending: null }
  return { state, effects: [{ type: 'armDeadline', ms: limits.readyMs }] }
}

/** "15 s", "0.2 s": a limit as the user reads it in an error. */
function seconds(ms: number): number {
  return Number((ms / 1000).toFixed(1))
}

const FORWARD: RunEffect = { type: 'forward' }
const KILL: RunEffect = { type: 'kill' }
const CLEAR: RunEffect = { type: 'clearDeadline' }
const arm = (ms: number): RunEffect => ({ type: 'armDeadline', ms })

export function transition(state: RunState, event: RunEvent): Transition {
  const { phase } = state
  const refuse = (): Transition => ({ ok: false, state, refused: `'${event.type}' is not expected while the run is ${phase}` })
  const to = (patch: Partial<RunState>, ...effects: RunEffect[]): Transition => ({ ok: true, state: { ...state, ...patch }, effects })
  if (phase === 'released' || phase === 'ended') return refuse()
  switch (event.type) {
    case 'ready':
      // The ready deadline gives way to the backstop with the start message: the worker's own clocks start no earlier.
      return phase === 'spawning' ? to({ phase: 'waitingLock' }, { type: 'sendStart' }, arm(backstopMs(state.limits))) : refuse()
    case 'locked':
      if (phase === 'waitingLock') return to({ phase: 'running' }, FORWARD)
      return phase === 'stopping' ? to({}, FORWARD) : refuse()
    case 'progress':
      return phase === 'waitingLock' || phase === 'running' || phase === 'stopping' ? to({}, FORWARD) : refuse()
    case 'action':
      return phase === 'running' || phase === 'stopping' ? to({}, FORWARD) : refuse()
    case 'done': {
      const outcome = { outcome: event.outcome, outcomeRecorded: event.recorded }
      // The work is saved; a worker that then fails to exit must not hold up the next review.
      if (phase === 'running') return to({ phase: 'finishing', ...outcome }, arm(state.limits.killGraceMs))
      return phase === 'stopping' ? to(outcome) : refuse()
    }
    case 'error':
      if (phase === 'finishing') return refuse() // its outcome stands
      return to({ error: state.error ?? { code: event.code, message: event.message, failure: event.failure ?? parseReviewFailure(event.message), recorded: event.recorded } })
    case 'deadline': {
      // While spawning the only deadline armed is the ready deadline; a stopped or finished worker overran a grace, not the backstop.
      const killedAt = phase === 'spawning' ? 'ready' : !state.outcome && phase !== 'stopping' ? 'backstop' : null
      return to({ killedAt: state.killedAt ?? killedAt }, KILL)
    }
    case 'stop':
      return phase === 'stopping' ? refuse() : to({ phase: 'stopping' }, { type: 'sendShutdown' }, arm(state.limits.stopGraceMs))
    case 'release':
      // Not before the worker has its start message: until then it has nothing to go on with (the
      // releasing host waits for `ready`, or for the ready deadline's kill: see ReviewHost.release).
      return phase === 'waitingLock' || phase === 'running' || phase === 'finishing' ? to({ phase: 'released' }, CLEAR, { type: 'letGo' }) : refuse()
    case 'exit': {
      const { ending, record } = endingOf(state, event)
      return to({ phase: 'ended', ending }, CLEAR, { type: 'end', ending, record })
    }
  }
}

/**
 * What an exit means: done if the worker sent its outcome; what the worker reported if it recorded
 * that itself; a failure if the host was stopping it; what it reported (a timeout, a provider
 * error, the lock held elsewhere too long); a crash that says so if it never said `ready` in time;
 * a timeout if the backstop killed it; otherwise a crash.
 */
function endingOf(state: RunState, exit: Extract<RunEvent, { type: 'exit' }>): { ending: RunEnding; record: boolean } {
  if (state.outcome) return { ending: { status: 'done', outcome: state.outcome }, record: !state.outcomeRecorded }
  const { error } = state
  if (error?.recorded) return { ending: reportedEnding(error, exit), record: false }
  if (state.phase === 'stopping') return { ending: failedEnding('failed', STOPPED), record: true }
  if (error) return { ending: reportedEnding(error, exit), record: true }
  if (state.killedAt === 'ready') {
    // A crash, not a timeout or a plain failure: no review began and no budget was spent, and what
    // keeps a worker from starting (its runtime or a native module failing to load, a hang at
    // start-up) is the process being broken, which the next worker will most likely hit too. So it
    // counts towards pausing like any crash, rather than spawning a stuck process after every turn.
    return { ending: failedEnding('crashed', { code: 'did_not_start', seconds: seconds(state.limits.readyMs) }, outputTail(exit)), record: true }
  }
  if (state.killedAt === 'backstop') {
    return { ending: failedEnding('timeout', { code: 'over_budget', seconds: seconds(state.limits.budgetMs) }), record: true }
  }
  return { ending: crashEnding(exit, null), record: true }
}

function reportedEnding(error: WorkerError, exit: Extract<RunEvent, { type: 'exit' }>): RunEnding {
  const { failure, message } = error
  if (error.code === 'timeout') return { status: 'timeout', failure, error: message }
  if (!CRASH_CODES.has(error.code)) return { status: 'failed', failure, error: message }
  // What the worker recorded is what the row says; otherwise the exit and output tell more.
  return error.recorded ? { status: 'crashed', failure, error: message } : crashEnding(exit, error)
}

function crashEnding(exit: Extract<RunEvent, { type: 'exit' }>, error: WorkerError | null): RunEnding {
  const reported = error?.message ?? ''
  const failure: ReviewFailure = exit.signal ? { code: 'worker_killed', signal: exit.signal, reported } : { code: 'worker_exited', exitCode: String(exit.code), reported }
  return failedEnding('crashed', failure, outputTail(exit))
}

function outputTail(exit: Extract<RunEvent, { type: 'exit' }>): string {
  const output = exit.output?.trim()
  return output ? `\nLast output:\n${output.slice(-OUTPUT_IN_ERROR)}` : ''
}

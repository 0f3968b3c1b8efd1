import { describe, expect, it } from 'vitest'
import type { ReviewOutcome } from '../../../../shared/review-protocol'
import {
  STOPPED_ERROR,
  backstopMs,
  startRun,
  transition,
  type RunEvent,
  type RunLimits,
  type RunPhase,
  type RunState
} from '../../../../electron/core/learning/host/review-run-state'

const limits: RunLimits = { readyMs: 2_000, budgetMs: 10_000, lockWaitMs: 10_000, killGraceMs: 1_000, stopGraceMs: 500 }
// The machine carries the outcome through untouched, whatever is in it.
const outcome = { finalText: 'Nothing to save.' } as ReviewOutcome

const ev = {
  ready: { type: 'ready' },
  locked: { type: 'locked' },
  progress: { type: 'progress' },
  action: { type: 'action' },
  done: { type: 'done', outcome, recorded: false },
  error: { type: 'error', code: 'provider_auth', message: 'The key was refused.', recorded: false },
  deadline: { type: 'deadline' },
  stop: { type: 'stop' },
  release: { type: 'release' },
  exit: { type: 'exit', code: 0, signal: null }
} satisfies Record<string, RunEvent>

/** Applies events that must all be accepted. */
function run(...events: RunEvent[]): RunState {
  let state = startRun(limits).state
  for (const event of events) {
    const next = transition(state, event)
    if (!next.ok) throw new Error(next.refused)
    state = next.state
  }
  return state
}

/** A run in each phase, reached the ordinary way. */
const reach: Record<RunPhase, () => RunState> = {
  spawning: () => run(),
  waitingLock: () => run(ev.ready),
  running: () => run(ev.ready, ev.locked),
  finishing: () => run(ev.ready, ev.locked, ev.done),
  stopping: () => run(ev.ready, ev.stop),
  released: () => run(ev.ready, ev.locked, ev.release),
  ended: () => run(ev.exit)
}

describe('the review run state machine: legal transitions', () => {
  it('a new worker has only the ready deadline to say ready; the backstop (lock wait + budget + grace) comes with the start message', () => {
    expect(startRun(limits)).toEqual({ state: expect.objectContaining({ phase: 'spawning', killedAt: null }), effects: [{ type: 'armDeadline', ms: 2_000 }] })
    expect(backstopMs(limits)).toBe(21_000)
    const ready = transition(startRun(limits).state, ev.ready)
    expect(ready).toMatchObject({ ok: true, effects: [{ type: 'sendStart' }, { type: 'armDeadline', ms: 21_000 }] })
  })

  it('remembers which deadline killed the worker', () => {
    expect(run(ev.deadline).killedAt).toBe('ready')
    expect(run(ev.ready, ev.deadline).killedAt).toBe('backstop')
    expect(run(ev.ready, ev.locked, ev.deadline).killedAt).toBe('backstop')
    // Past a grace, not a deadline of the review's: nothing to hold against it.
    expect(run(ev.ready, ev.locked, ev.done, ev.deadline).killedAt).toBeNull()
    expect(run(ev.stop, ev.deadline).killedAt).toBeNull()
    // A second firing (say, the kill's exit is slow) does not change the first answer.
    expect(run(ev.deadline, ev.stop, ev.deadline).killedAt).toBe('ready')
  })

  const legal: Array<[RunPhase, keyof typeof ev, RunPhase, unknown[]]> = [
    ['spawning', 'ready', 'waitingLock', [{ type: 'sendStart' }, { type: 'armDeadline', ms: 21_000 }]],
    ['spawning', 'error', 'spawning', []],
    ['spawning', 'deadline', 'spawning', [{ type: 'kill' }]],
    ['spawning', 'stop', 'stopping', [{ type: 'sendShutdown' }, { type: 'armDeadline', ms: 500 }]],
    ['spawning', 'exit', 'ended', [{ type: 'clearDeadline' }, { type: 'end' }]],
    // Holding the lock starts the worker's budget; the host's deadline is left as it was.
    ['waitingLock', 'locked', 'running', [{ type: 'forward' }]],
    ['waitingLock', 'progress', 'waitingLock', [{ type: 'forward' }]],
    ['waitingLock', 'error', 'waitingLock', []],
    ['waitingLock', 'deadline', 'waitingLock', [{ type: 'kill' }]],
    ['waitingLock', 'stop', 'stopping', [{ type: 'sendShutdown' }, { type: 'armDeadline', ms: 500 }]],
    ['waitingLock', 'release', 'released', [{ type: 'clearDeadline' }, { type: 'letGo' }]],
    ['waitingLock', 'exit', 'ended', [{ type: 'clearDeadline' }, { type: 'end' }]],
    ['running', 'progress', 'running', [{ type: 'forward' }]],
    ['running', 'action', 'running', [{ type: 'forward' }]],
    ['running', 'done', 'finishing', [{ type: 'armDeadline', ms: 1_000 }]],
    ['running', 'error', 'running', []],
    ['running', 'deadline', 'running', [{ type: 'kill' }]],
    ['running', 'stop', 'stopping', [{ type: 'sendShutdown' }, { type: 'armDeadline', ms: 500 }]],
    ['running', 'release', 'released', [{ type: 'clearDeadline' }, { type: 'letGo' }]],
    ['running', 'exit', 'ended', [{ type: 'clearDeadline' }, { type: 'end' }]],
    ['finishing', 'deadline', 'finishing', [{ type: 'kill' }]],
    ['finishing', 'stop', 'stopping', [{ type: 'sendShutdown' }, { type: 'armDeadline', ms: 500 }]],
    ['finishing', 'release', 'released', [{ type: 'clearDeadline' }, { type: 'letGo' }]],
    ['finishing', 'exit', 'ended', [{ type: 'clearDeadline' }, { type: 'end' }]],
    ['stopping', 'locked', 'stopping', [{ type: 'forward' }]],
    ['stopping', 'progress', 'stopping', [{ type: 'forward' }]],
    ['stopping', 'action', 'stopping', [{ type: 'forward' }]],
    ['stopping', 'done', 'stopping', []],
    ['stopping', 'error', 'stopping', []],
    ['stopping', 'deadline', 'stopping', [{ type: 'kill' }]],
    ['stopping', 'exit', 'ended', [{ type: 'clearDeadline' }, { type: 'end' }]]
  ]

  it.each(legal)('%s + %s → %s', (from, event, to, effects) => {
    const next = transition(reach[from](), ev[event])
    expect(next.ok).toBe(true)
    expect(next.state.phase).toBe(to)
    if (next.ok) expect(next.effects).toMatchObject(effects)
    if (next.ok) expect(next.effects).toHaveLength(effects.length)
  })
})

describe('the review run state machine: illegal transitions are refused and change nothing', () => {
  const events = Object.keys(ev) as Array<keyof typeof ev>
  const legalPairs = new Set([
    'spawning:ready', 'spawning:error', 'spawning:deadline', 'spawning:stop', 'spawning:exit',
    'waitingLock:locked', 'waitingLock:progress', 'waitingLock:error', 'waitingLock:deadline', 'waitingLock:stop', 'waitingLock:release', 'waitingLock:exit',
    'running:progress', 'running:action', 'running:done', 'running:error', 'running:deadline', 'running:stop', 'running:release', 'running:exit',
    'finishing:deadline', 'finishing:stop', 'finishing:release', 'finishing:exit',
    'stopping:locked', 'stopping:progress', 'stopping:action', 'stopping:done', 'stopping:error', 'stopping:deadline', 'stopping:exit'
  ])
  const illegal = (Object.keys(reach) as RunPhase[]).flatMap((phase) =>
    events.filter((event) => !legalPairs.has(`${phase}:${event}`)).map((event) => [phase, event] as const)
  )

  it('covers every pair the legal table leaves out', () => {
    expect(illegal.length + legalPairs.size).toBe(7 * events.length)
  })

  it.each(illegal)('%s + %s is refused', (phase, event) => {
    const state = reach[phase]()
    const next = transition(state, ev[event])
    expect(next).toMatchObject({ ok: false, refused: expect.stringContaining(phase) })
    expect(next.state).toBe(state)
  })
})

describe('how a run ends', () => {
  const endOf = (state: RunState, exit: Partial<Extract<RunEvent, { type: 'exit' }>> = {}) => {
    const next = transition(state, { ...ev.exit, ...exit })
    if (!next.ok) throw new Error(next.refused)
    return next.effects.find((effect) => effect.type === 'end')
  }
  const reported = (code: string, message: string, recorded = false): RunEvent => ({ type: 'error', code, message, recorded })

  it('with its outcome: done, written by the host unless the worker recorded it itself', () => {
    expect(endOf(reach.finishing())).toEqual({ type: 'end', ending: { status: 'done', outcome }, record: true })
    const recorded = run(ev.ready, ev.locked, { ...ev.done, recorded: true })
    expect(endOf(recorded)).toEqual({ type: 'end', ending: { status: 'done', outcome }, record: false })
    // Killed for not exiting after its outcome: still done.
    expect(endOf(transition(reach.finishing(), ev.deadline).state, { code: null, signal: 'SIGKILL' })).toMatchObject({ ending: { status: 'done' } })
  })

  it("the worker's own timeout is a timeout with its message", () => {
    const state = run(ev.ready, ev.locked, reported('timeout', 'The review took longer than its 10 s budget (learning.reviewTimeoutMs) and was stopped.'))
    expect(endOf(state, { code: 124 })).toMatchObject({ ending: { status: 'timeout', error: expect.stringMatching(/longer than its 10 s budget/) }, record: true })
  })

  it('waiting out the lock is a plain failure, not a timeout or a crash', () => {
    const state = run(ev.ready, reported('lock_timeout', 'Another review of this data home held the review lock.'))
    expect(endOf(state, { code: 1 })).toMatchObject({ ending: { status: 'failed', error: 'Another review of this data home held the review lock.' } })
  })

  it('a worker killed at the ready deadline did not start: a crash that says so, never a budget timeout', () => {
    const state = run(ev.deadline)
    expect(endOf(state, { code: null, signal: 'SIGKILL' })).toEqual({
      type: 'end',
      ending: { status: 'crashed', failure: { code: 'did_not_start', seconds: 2 }, error: 'The review worker did not start within 2 s.' },
      record: true
    })
    expect(endOf(state, { code: null, signal: 'SIGKILL', output: 'loading better-sqlite3\n' })).toMatchObject({
      ending: { status: 'crashed', error: 'The review worker did not start within 2 s.\nLast output:\nloading better-sqlite3' }
    })
    // One that says ready in time is held to the budget instead.
    expect(endOf(run(ev.ready, ev.deadline), { code: null, signal: 'SIGKILL' })).toMatchObject({ ending: { status: 'timeout' } })
  })

  it('a worker stopped before it was ready is stopped, not "did not start"', () => {
    const state = run(ev.stop, ev.deadline)
    expect(endOf(state, { code: null, signal: 'SIGKILL' })).toMatchObject({ ending: { status: 'failed', error: STOPPED_ERROR }, record: true })
  })

  it('a worker the backstop had to kill ran out of time', () => {
    const state = run(ev.ready, ev.locked, ev.deadline)
    expect(endOf(state, { code: null, signal: 'SIGKILL' })).toMatchObject({
      ending: { status: 'timeout', error: 'The review took longer than its 10 s budget and was stopped.' },
      record: true
    })
  })

  it('stopped on close: a failure that says so, whatever the worker said while stopping', () => {
    const state = run(ev.ready, ev.locked, ev.stop, reported('cancelled', 'The review was cancelled.'), ev.deadline)
    expect(endOf(state, { code: null, signal: 'SIGKILL' })).toMatchObject({ ending: { status: 'failed', error: STOPPED_ERROR }, record: true })
  })

  it('an exit without a word is a crash, with how it exited and the last output', () => {
    const state = run(ev.ready, ev.locked)
    expect(endOf(state, { code: null, signal: 'SIGKILL', output: 'writing skill 7\n' })).toMatchObject({
      ending: { status: 'crashed', error: 'The review worker was killed (SIGKILL) before finishing.\nLast output:\nwriting skill 7' }
    })
    const uncaught = run(ev.ready, ev.locked, reported('uncaught', 'The review worker crashed: boom'))
    expect(endOf(uncaught, { code: 73 })).toMatchObject({
      ending: { status: 'crashed', error: 'The review worker exited with code 73 before finishing. The review worker crashed: boom' }
    })
  })

  it('an ending the worker recorded itself is never written again by the host, even while stopping', () => {
    const timedOut = run(ev.ready, ev.locked, reported('timeout', 'Over budget.', true), ev.stop)
    expect(endOf(timedOut, { code: 124 })).toEqual({ type: 'end', ending: { status: 'timeout', failure: { code: 'other', text: 'Over budget.' }, error: 'Over budget.' }, record: false })
    const crashed = run(ev.ready, ev.locked, reported('uncaught', 'The review worker crashed: boom', true))
    expect(endOf(crashed, { code: 73 })).toEqual({ type: 'end', ending: { status: 'crashed', failure: { code: 'other', text: 'The review worker crashed: boom' }, error: 'The review worker crashed: boom' }, record: false })
  })

  it('every failed ending carries its failure as data for the faces, the worker’s own code when it sent one', () => {
    const failureOf = (state: RunState, exit: { code: number | null; signal?: string; output?: string }) => (endOf(state, exit) as { ending: { failure?: unknown } }).ending.failure
    expect(failureOf(run(ev.ready, ev.locked, ev.deadline), { code: null, signal: 'SIGKILL' })).toEqual({ code: 'over_budget', seconds: 10 })
    expect(failureOf(run(ev.ready, ev.locked, ev.stop, ev.deadline), { code: null, signal: 'SIGKILL' })).toEqual({ code: 'stopped' })
    expect(failureOf(run(ev.ready, ev.locked), { code: null, signal: 'SIGKILL', output: 'writing skill 7\n' })).toEqual({ code: 'worker_killed', signal: 'SIGKILL', reported: '' })
    const lockHeld = transition(run(ev.ready), { type: 'error', code: 'lock_timeout', message: 'held elsewhere', failure: { code: 'lock_held', seconds: 10 }, recorded: false }).state
    expect(failureOf(lockHeld, { code: 1 })).toEqual({ code: 'lock_held', seconds: 10 })
  })

  it('keeps the first error the worker reported', () => {
    const state = run(ev.ready, reported('lock_timeout', 'first'), reported('internal', 'second'))
    expect(state.error).toMatchObject({ code: 'lock_timeout', message: 'first' })
  })
})

import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { REVIEW_PROTOCOL, REVIEW_PROTOCOL_VERSION, type HostMessage, type ReviewEvent, type ReviewOutcome } from '../../../../shared/review-protocol'
import { emptyReviewSummary } from '../../../../shared/review-outcome'
import { openStateDb, type StateDb } from '../../../../electron/core/db/state-db'
import { ReviewHost, type ReviewHostOptions } from '../../../../electron/core/learning/host/review-host'
import { ReviewRuns } from '../../../../electron/core/ledger/review-runs'
import type { WorkerHandle } from '../../../../electron/core/learning/host/spawn-worker'

/**
 * The host's supervision of one worker, with a scripted worker and fake timers: no process, no
 * model, no waiting on the clock. (The real worker and its own budget are covered in review-crash,
 * review-lock-budget and review-lifecycle.)
 */

const BUDGET = 10_000
const GRACE = 1_000

let dir: string
let db: StateDb
let runs: ReviewRuns

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'cairn-supervise-'))
  db = openStateDb(join(dir, 'state.db'))
  runs = new ReviewRuns(db)
  vi.useFakeTimers()
})

afterEach(() => {
  vi.useRealTimers()
  db.close()
  rmSync(dir, { recursive: true, force: true })
})

interface ScriptedWorker {
  handle: WorkerHandle
  sent: HostMessage[]
  kills: number
  released: boolean
  say(frame: Record<string, unknown>): void
  exit(code: number | null, signal?: string | null): void
}

function scriptedWorker(): ScriptedWorker {
  let onMessage: (message: unknown) => void = () => {}
  let onExit: (code: number | null, signal: string | null) => void = () => {}
  const worker: ScriptedWorker = {
    sent: [],
    kills: 0,
    released: false,
    handle: {
      pid: 4242,
      send: (message) => void worker.sent.push(message),
      onMessage: (cb) => (onMessage = cb),
      onExit: (cb) => (onExit = cb),
      kill: () => {
        worker.kills++
        onExit(null, 'SIGKILL')
      },
      release: () => (worker.released = true)
    },
    say: (frame) => onMessage({ protocol: REVIEW_PROTOCOL, version: REVIEW_PROTOCOL_VERSION, reviewId: '', ...frame }),
    exit: (code, signal = null) => onExit(code, signal)
  }
  return worker
}

function setup(options: Partial<ReviewHostOptions> = {}) {
  const worker = scriptedWorker()
  const host = new ReviewHost({
    home: dir,
    runs,
    settings: () => ({ enabled: true, reviewTimeoutMs: BUDGET, reviewMaxIterations: 8, allowSkillCreation: true }),
    spawn: () => worker.handle,
    provider: () => ({ preset: 'custom', baseURL: 'http://127.0.0.1:1/v1', model: 'm', apiKey: 'sk-x', requestTimeoutMs: 1000, maxRetries: 0 }),
    limits: { killGraceMs: GRACE, stopGraceMs: 500 },
    ...options
  })
  const events: ReviewEvent[] = []
  host.events.on((event) => events.push(event))
  const id = host.enqueue({ sessionId: 's', kinds: ['memory'], reasons: [{ code: 'requested' as const }], messages: [], skillsUsed: [] })
  const say = (frame: Record<string, unknown>) => worker.say({ reviewId: id, ...frame })
  return { host, worker, events, id, say }
}

const outcome: ReviewOutcome = { summary: emptyReviewSummary(), entries: [], skillOutcomes: [], finalText: 'Nothing to save.', iterations: 1, toolCalls: 0, refusedCalls: [] }

describe('the host supervising a review worker', () => {
  it('kills a worker that neither finishes nor stops itself only past lock wait + budget + grace, and records a timeout', async () => {
    const { host, worker, say, id } = setup()
    say({ type: 'ready', pid: 4242 })
    say({ type: 'progress', stage: 'locked' })
    vi.advanceTimersByTime(2 * BUDGET + GRACE - 1)
    expect(worker.kills).toBe(0)
    vi.advanceTimersByTime(1)
    expect(worker.kills).toBe(1)
    expect(await host.wait(id)).toBe('timeout')
    expect(runs.get(id)).toMatchObject({ status: 'timeout', error: expect.stringMatching(/longer than its 10 s budget/) })
  })

  it('does not hold a long lock wait against the budget: a review that gets the lock late and then works its budget is done', async () => {
    const { host, worker, say, id, events } = setup()
    say({ type: 'ready', pid: 4242 })
    say({ type: 'progress', stage: 'waiting' })
    vi.advanceTimersByTime(BUDGET - 100) // another review holds the lock
    say({ type: 'progress', stage: 'locked' })
    vi.advanceTimersByTime(BUDGET - 100) // the review's own work
    say({ type: 'done', outcome })
    worker.exit(0)
    expect(await host.wait(id)).toBe('done')
    expect(worker.kills).toBe(0)
    expect(events.flatMap((e) => (e.type === 'review_progress' ? [e.stage] : []))).toEqual(['waiting', 'locked'])
    expect(runs.get(id)).toMatchObject({ status: 'done', pid: 4242 })
  })

  it('writes an attached run’s ending itself, and never one a detached worker says it recorded', async () => {
    const attached = setup()
    const finished = vi.spyOn(runs, 'finished')
    attached.say({ type: 'ready', pid: 4242 })
    attached.say({ type: 'progress', stage: 'locked' })
    attached.say({ type: 'done', outcome })
    attached.worker.exit(0)
    expect(await attached.host.wait(attached.id)).toBe('done')
    expect(finished).toHaveBeenCalledTimes(1)

    finished.mockClear()
    const failed = vi.spyOn(runs, 'failed')
    const detached = setup({ detached: true })
    detached.say({ type: 'ready', pid: 4242 })
    detached.say({ type: 'progress', stage: 'locked' })
    detached.say({ type: 'error', code: 'timeout', message: 'Over its budget.', recorded: true })
    detached.worker.exit(124)
    expect(await detached.host.wait(detached.id)).toBe('timeout')
    expect(failed).not.toHaveBeenCalled()
    expect(detached.events.at(-1)).toMatchObject({ type: 'review_failed', error: 'Over its budget.', crashed: false })
  })

  it('kills a worker that never says ready at the ready deadline, records that it did not start, and starts the next review', async () => {
    const workers: ScriptedWorker[] = []
    const spawn = () => (workers.push(scriptedWorker()), workers.at(-1)!.handle)
    const { host, id, events } = setup({ spawn, limits: { killGraceMs: GRACE, stopGraceMs: 500, readyTimeoutMs: 2_000 } })
    const next = host.enqueue({ sessionId: 't', kinds: ['memory'], reasons: [{ code: 'requested' as const }], messages: [], skillsUsed: [] })
    expect(workers).toHaveLength(1)
    vi.advanceTimersByTime(1_999)
    expect(workers[0].kills).toBe(0)
    vi.advanceTimersByTime(1)
    expect(workers[0].kills).toBe(1)
    expect(workers[0].sent).toEqual([]) // it never got its start message
    expect(await host.wait(id)).toBe('crashed')
    expect(runs.get(id)).toMatchObject({ status: 'crashed', error: 'The review worker did not start within 2 s.' })
    expect(events).toContainEqual(expect.objectContaining({ type: 'review_failed', reviewId: id, crashed: true, error: 'The review worker did not start within 2 s.' }))
    // The queue moves on at once, not after a review's worth of backstop.
    expect(workers).toHaveLength(2)
    expect(host.status().running).toMatchObject({ reviewId: next })
    workers[1].say({ reviewId: next, type: 'ready', pid: 4242 })
    expect(workers[1].sent).toMatchObject([{ type: 'start', job: { reviewId: next } }])
    // Once started, the worker is held to the backstop, not to the ready deadline.
    workers[1].say({ reviewId: next, type: 'progress', stage: 'locked' })
    vi.advanceTimersByTime(2 * BUDGET + GRACE - 1)
    expect(workers[1].kills).toBe(0)
    workers[1].say({ reviewId: next, type: 'done', outcome })
    workers[1].exit(0)
    expect(await host.wait(next)).toBe('done')
  })

  it('a worker that does not start counts towards pausing like a crash, and the pause says why', async () => {
    const { host, worker, id, events } = setup({ limits: { readyTimeoutMs: 2_000, maxConsecutiveFailures: 1 } })
    vi.advanceTimersByTime(2_000)
    expect(worker.kills).toBe(1)
    expect(await host.wait(id)).toBe('crashed')
    expect(host.paused).toBe(true)
    expect(events.at(-1)).toEqual({ type: 'reviews_paused', reason: { code: 'failures', count: 1, latest: 'The review worker did not start within 2 s.', latestFailure: { code: 'did_not_start', seconds: 2 } } })
  })

  it('release does not hang on a detached worker that never says ready: it is killed at the 15 s ready deadline and its crash recorded', async () => {
    const { host, worker, id } = setup({ detached: true })
    let released = false
    const releasing = host.release().then(() => (released = true))
    await vi.advanceTimersByTimeAsync(15_000 - 1)
    expect(released).toBe(false)
    expect(worker.kills).toBe(0)
    await vi.advanceTimersByTimeAsync(1)
    await releasing
    expect(worker.kills).toBe(1)
    expect(worker.released).toBe(false) // nothing to let go: it was never told what to review
    expect(runs.get(id)).toMatchObject({ status: 'crashed', error: 'The review worker did not start within 15 s.' })
    expect(host.status().running).toBeNull()
    expect(vi.getTimerCount()).toBe(0)
  })

  it('release gives up a little past the ready deadline even if the killed worker’s exit is never reported', async () => {
    const { host, worker } = setup({ detached: true, limits: { readyTimeoutMs: 2_000 } })
    worker.handle.kill = () => void worker.kills++ // the exit never comes
    let released = false
    const releasing = host.release().then(() => (released = true))
    await vi.advanceTimersByTimeAsync(2_000)
    expect(worker.kills).toBe(1)
    expect(released).toBe(false)
    await vi.advanceTimersByTimeAsync(4_000)
    await releasing
    expect(released).toBe(true)
  })

  it('after release keeps no timer and reports or records nothing more for the worker', async () => {
    const { host, worker, say, id, events } = setup({ detached: true })
    say({ type: 'ready', pid: 4242 })
    say({ type: 'progress', stage: 'locked' })
    await host.release()
    expect(worker.released).toBe(true)
    expect(vi.getTimerCount()).toBe(0)
    const seen = events.length
    const writes = [vi.spyOn(runs, 'finished'), vi.spyOn(runs, 'failed')]
    say({ type: 'action', entry: {} })
    say({ type: 'done', outcome, recorded: true })
    worker.exit(0)
    expect(events.slice(seen)).toEqual([])
    for (const write of writes) expect(write).not.toHaveBeenCalled()
    expect(host.status().running).toBeNull()
    expect(runs.get(id)!.status).toBe('running') // the worker's to finish
  })

  it('release waits until the worker has its start message', async () => {
    const { host, worker, say } = setup({ detached: true })
    const releasing = host.release()
    await Promise.resolve()
    expect(worker.released).toBe(false)
    say({ type: 'ready', pid: 4242 })
    await releasing
    expect(worker.sent.map((m) => m.type)).toEqual(['start'])
    expect(worker.released).toBe(true)
  })

  it('close asks the worker to shut down, kills it after the stop grace and records why', async () => {
    const { host, worker, say, id } = setup()
    say({ type: 'ready', pid: 4242 })
    say({ type: 'progress', stage: 'locked' })
    const closed = host.close()
    expect(worker.sent.map((m) => m.type)).toEqual(['start', 'shutdown'])
    vi.advanceTimersByTime(500)
    await closed
    expect(worker.kills).toBe(1)
    expect(await host.wait(id)).toBe('failed')
    expect(runs.get(id)).toMatchObject({ status: 'failed', error: 'Stopped because Cairn was closing.' })
  })

  it('a review whose provider settings cannot be read fails without starting a process', async () => {
    let spawned = 0
    const { host, id, events } = setup({
      spawn: () => (spawned++, scriptedWorker().handle),
      provider: () => {
        throw new Error('the keyring is locked')
      }
    })
    expect(await host.wait(id)).toBe('failed')
    expect(spawned).toBe(0)
    expect(runs.get(id)).toMatchObject({ status: 'failed', error: 'Could not read the provider settings: the keyring is locked' })
    expect(events.map((e) => e.type)).toEqual(['review_queued', 'review_failed'])
  })

  it('a worker that cannot be started is a crash, which counts towards pausing', async () => {
    const { host, id } = setup({
      spawn: () => {
        throw new Error('spawn ENOMEM')
      },
      limits: { maxConsecutiveFailures: 1 }
    })
    expect(await host.wait(id)).toBe('crashed')
    expect(runs.get(id)).toMatchObject({ status: 'crashed', error: 'Could not start the review worker: spawn ENOMEM' })
    expect(host.paused).toBe(true)
  })

  it('drops frames that are out of order instead of guessing: an outcome before the lock is not a finished review', async () => {
    const { host, worker, say, id } = setup()
    say({ type: 'ready', pid: 4242 })
    say({ type: 'done', outcome })
    worker.exit(0)
    expect(await host.wait(id)).toBe('crashed')
  })
})

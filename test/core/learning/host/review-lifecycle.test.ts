import { spawnSync } from 'node:child_process'
import { afterEach, describe, expect, it } from 'vitest'
import type { ReviewEvent } from '../../../../shared/review-protocol'
import { emptyReviewSummary } from '../../../../shared/review-outcome'
import type { CairnApp } from '../../../../electron/core/app/cairn-app'
import { learningHandlers } from '../../../../electron/core/app/handlers/learning'
import { ReviewHost, reviewHostDepsOf } from '../../../../electron/core/learning/host/review-host'
import { NEVER_STARTED_ERROR, ReviewRuns } from '../../../../electron/core/ledger/review-runs'
import { forkReviewWorker } from '../../../../electron/core/learning/host/spawn-worker'
import { reviewFixture, type ReviewFixture } from '../../../helpers/review-fixture'

let fx: ReviewFixture | null = null

afterEach(async () => {
  await fx?.close()
  fx = null
})

const job = (sessionId: string) => ({
  sessionId,
  kinds: ['memory' as const],
  reasons: [{ code: 'requested' as const }],
  messages: [{ role: 'user' as const, content: 'I use pnpm.' }],
  skillsUsed: []
})

/** A pid that surely belongs to no process any more. */
function deadPid(): number {
  return spawnSync(process.execPath, ['-e', '']).pid!
}

/**
 * A host as the one-shot CLI makes it: its worker finishes on its own once released. `exited`
 * resolves when that worker's process is gone (its host had every chance to react by then).
 */
function detachedHost(fx: ReviewFixture, timeoutMs?: number): { host: ReviewHost; events: ReviewEvent[]; exited: Promise<void> } {
  let workerExited: () => void = () => {}
  const exited = new Promise<void>((resolve) => (workerExited = resolve))
  const spawn = () => {
    const handle = forkReviewWorker()
    handle.onExit(() => workerExited())
    return handle
  }
  const host = new ReviewHost({ ...reviewHostDepsOf(fx.core), spawn, provider: fx.settings, detached: true, limits: { timeoutMs } })
  const events: ReviewEvent[] = []
  host.events.on((event) => events.push(event))
  return { host, events, exited }
}

describe('a released (detached) review', () => {
  it('is left alone by its host after release(); the worker records the outcome itself', async () => {
    // The model answers only once the host has let go, so the whole review happens after release().
    let answer: () => void = () => {}
    const released = new Promise<void>((resolve) => (answer = resolve))
    fx = await reviewFixture({ server: { respond: async () => (await released, { text: 'Nothing to save.' }) } })
    const { host, events, exited } = detachedHost(fx)
    const id = host.enqueue(job('s'))
    await host.release()
    const seen = events.length
    expect(host.status().running).toBeNull()
    answer()
    await exited
    expect(host.runs.get(id)).toMatchObject({ status: 'done', summary: { saved: false } })
    // The host recorded and announced nothing after letting go (it may be about to close its core).
    expect(events.slice(seen)).toEqual([])
  }, 40_000)

  it('records its own timeout when it outlives the host', async () => {
    fx = await reviewFixture({ server: { respond: () => ({ fault: { type: 'hang' } }) } })
    const { host, exited } = detachedHost(fx, 1_000)
    const id = host.enqueue(job('s'))
    await host.release()
    await exited
    expect(host.runs.get(id)).toMatchObject({ status: 'timeout', error: expect.stringMatching(/longer than its 1 s budget/) })
  }, 40_000)
})

describe('rows no process will finish', () => {
  it('a new host ends rows of dead workers and long-queued rows, and leaves live ones alone', async () => {
    fx = await reviewFixture()
    const runs = new ReviewRuns(fx.core.db)
    const budget = 5_000
    const now = Date.now()
    const long = now - 3 * budget
    const queued = (id: string, at = now) => runs.queued({ reviewId: id, sessionId: null, kinds: ['memory'], reasons: [{ code: 'requested' as const }] }, at)
    const running = (id: string, pid: number | null, at = now) => {
      queued(id, at)
      runs.started(id, pid, at)
    }
    running('dead-worker', deadPid())
    running('live-worker', process.pid)
    running('no-pid-old', null, long)
    running('no-pid-new', null)
    queued('queued-old', long)
    queued('queued-new')
    running('finished', deadPid())
    runs.finished('finished', { summary: emptyReviewSummary() })

    const { host } = fx.host({ limits: { timeoutMs: budget } })
    const status = (id: string) => runs.get(id)!.status
    expect(host.recovered).toEqual({ crashed: expect.arrayContaining(['dead-worker', 'no-pid-old']), failed: ['queued-old'] })
    expect(host.recovered.crashed).toHaveLength(2)
    expect(['dead-worker', 'no-pid-old', 'queued-old'].map(status)).toEqual(['crashed', 'crashed', 'failed'])
    expect(['live-worker', 'no-pid-new', 'queued-new', 'finished'].map(status)).toEqual(['running', 'running', 'queued', 'done'])
    expect(runs.get('dead-worker')!.error).toMatch(/is gone without recording how the review ended/)
    expect(runs.get('queued-old')!.error).toBe(NEVER_STARTED_ERROR)
    expect(runs.get('queued-old')!.error).toMatch(/^Never started: the process that queued it ended/)
  })
})

describe("the host's own status", () => {
  it('learning.status shows what this host runs, queues and why it paused, not rows other processes left', async () => {
    fx = await reviewFixture({ server: { respond: () => ({ fault: { type: 'hang' } }) } })
    // Another process's review, still running and alive, and one it queued: not this app's.
    const runs = new ReviewRuns(fx.core.db)
    runs.queued({ reviewId: 'other-running', sessionId: null, kinds: ['memory'], reasons: [{ code: 'requested' as const }] })
    runs.started('other-running', process.pid)
    runs.queued({ reviewId: 'other-queued', sessionId: null, kinds: ['memory'], reasons: [{ code: 'requested' as const }] })
    const { host } = fx.host()
    const app = { host, core: fx.core } as unknown as CairnApp
    const route = learningHandlers(app)['learning.status']
    const status = () => route(undefined, { sender: 'main' })
    expect(await status()).toMatchObject({ running: null, queued: 0, paused: false, pausedReason: null })

    const running = host.enqueue(job('s1'))
    host.enqueue(job('s2'))
    await fx.server.waitForChatRequests(1, 20_000)
    const busy = await status()
    expect(busy.running).toMatchObject({ id: running, sessionId: 's1', kinds: ['memory'], reasons: [{ code: 'requested' as const }], status: 'running' })
    expect(busy.running!.startedAt).toEqual(expect.any(Number))
    expect(busy.queued).toBe(1)
    expect(host.status()).toMatchObject({ running: { reviewId: running, sessionId: 's1' }, queued: 1 })

    host.pause()
    expect(await status()).toMatchObject({ paused: true, pausedReason: { code: 'requested' } })
    host.resume()
    expect(host.status()).toMatchObject({ paused: false, pausedReason: null })
  }, 40_000)
})

import { existsSync, readFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { REVIEW_PROTOCOL, REVIEW_PROTOCOL_VERSION, type ReviewEvent, type WorkerMessage } from '../../shared/review-protocol'
import { forkReviewWorker, type WorkerHandle } from '../../electron/core/learning/host/spawn-worker'
import { WORKER_EXIT } from '../../electron/core/learning/worker/worker-channel'
import { isReviewRequest, reviewFixture, reviewUserText, until, type ReviewFixture } from '../helpers/review-fixture'

let fx: ReviewFixture | null = null
const savedEnv = { CAIRN_API_KEY: process.env.CAIRN_API_KEY, OPENAI_API_KEY: process.env.OPENAI_API_KEY }

afterEach(async () => {
  await fx?.close()
  fx = null
  for (const [key, value] of Object.entries(savedEnv)) {
    if (value === undefined) delete process.env[key]
    else process.env[key] = value
  }
})

function ofType<T extends ReviewEvent['type']>(events: ReviewEvent[], type: T): Extract<ReviewEvent, { type: T }>[] {
  return events.filter((event) => event.type === type) as Extract<ReviewEvent, { type: T }>[]
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0)
    return true
  } catch {
    return false
  }
}

describe('review worker process via ReviewHost', () => {
  it('runs in its own process, gets the API key only through the start message, and reports the summary with the ledger rows', async () => {
    const apiKey = 'sk-secret-for-review-9f2c'
    process.env.CAIRN_API_KEY = apiKey
    process.env.OPENAI_API_KEY = apiKey
    fx = await reviewFixture({ apiKey })
    fx.server.enqueue(
      { toolCalls: [{ name: 'memory', arguments: { action: 'add', target: 'user', content: 'User prefers pnpm over npm' } }], delayMs: 1_500 },
      { text: 'Saved the pnpm preference.' }
    )
    const sessionId = fx.session()
    const { host, events } = fx.host()
    const reviewId = host.enqueue({ sessionId, kinds: ['memory'], reasons: [{ code: 'requested' as const }], messages: fx.job().messages, skillsUsed: [] })
    expect(ofType(events, 'review_queued')).toEqual([{ type: 'review_queued', reviewId, sessionId, kinds: ['memory'], reasons: [{ code: 'requested' as const }] }])

    await fx.server.waitForChatRequests(1, 20_000)
    const started = ofType(events, 'review_started')[0]
    expect(started.pid).toBeGreaterThan(0)
    expect(started.pid).not.toBe(process.pid)
    const environ = readFileSync(`/proc/${started.pid}/environ`, 'utf8')
    expect(environ).not.toContain(apiKey)
    expect(environ).not.toMatch(/(^|\0)(CAIRN_API_KEY|OPENAI_API_KEY)=/)
    expect(environ).toMatch(/(^|\0)PATH=/)

    expect(await host.wait(reviewId)).toBe('done')
    expect(alive(started.pid!)).toBe(false)
    const finished = ofType(events, 'review_finished')[0]
    expect(finished.outcome.summary).toMatchObject({ saved: true, user: { added: 1 }, skills: [] })
    expect(finished.outcome.entries).toHaveLength(1)
    expect(finished.outcome.entries[0]).toMatchObject({ kind: 'memory.add', source: 'review', reviewId, sessionId, after: 'User prefers pnpm over npm' })
    expect(ofType(events, 'review_action').map((e) => e.entry.id)).toEqual(finished.outcome.entries.map((e) => e.id))
    expect(fx.core.ledger.list({ reviewId })).toHaveLength(1)
    expect(fx.core.memory.read('user').entries).toEqual(['User prefers pnpm over npm'])
    // Every request reached the provider with the key.
    expect(fx.server.chatRequests().map((r) => r.headers.authorization)).toEqual([`Bearer ${apiKey}`, `Bearer ${apiKey}`])
    expect(host.runs.get(reviewId)).toMatchObject({ status: 'done', pid: started.pid, summary: { saved: true, user: { added: 1 }, skills: [] }, sessionId, kinds: ['memory'] })
  })

  it('loses no memory entry when the chat process and the worker write at the same time', async () => {
    fx = await reviewFixture({ config: { memory: { memoryCharLimit: 1_000_000 } } })
    const batches = 5
    const perBatch = 20
    fx.server.enqueue(
      ...Array.from({ length: batches }, (_, b) => ({
        // Later batches come slowly, so the worker is certainly still writing while the chat process writes.
        delayMs: b === 0 ? 0 : 300,
        toolCalls: Array.from({ length: perBatch }, (_, i) => ({
          name: 'memory',
          arguments: { action: 'add', target: 'memory', content: `review entry ${b * perBatch + i}: uses zsh with oh-my-zsh` }
        }))
      })),
      { text: 'Saved environment notes.' }
    )
    const { host, events } = fx.host({ limits: { maxIterations: batches + 2 } })
    const reviewId = host.enqueue({ sessionId: null, kinds: ['memory'], reasons: [{ code: 'requested' as const }], messages: fx.job().messages, skillsUsed: [] })
    await until(() => ofType(events, 'review_action').length > 0 || events.some((e) => e.type === 'review_failed'), 'the worker to write', 30_000)
    const mine: string[] = []
    for (let i = 0; i < 100; i++) {
      const text = `main entry ${i}: prefers tabs over spaces`
      const result = await fx.core.memory.add('memory', text, { write: { source: 'agent', sessionId: 'chat' } })
      expect(result.success).toBe(true)
      mine.push(text)
    }
    expect(await host.wait(reviewId)).toBe('done')

    const entries = fx.core.memory.read('memory').entries
    const review = Array.from({ length: batches * perBatch }, (_, i) => `review entry ${i}: uses zsh with oh-my-zsh`)
    expect(new Set(entries)).toEqual(new Set([...mine, ...review]))
    expect(entries).toHaveLength(200)
    // The writes really interleaved: the worker was still writing while the chat process wrote.
    const rows = fx.core.ledger.list({ limit: 1000 }).reverse()
    const firstMain = rows.findIndex((r) => r.source === 'agent')
    const lastReview = rows.map((r) => r.source).lastIndexOf('review')
    expect(firstMain).toBeLessThan(lastReview)
  })

  it('runs one review at a time and merges waiting triggers of the same session into one job', async () => {
    const lifetimes: Array<{ pid: number; previousAlive: boolean; exited: boolean }> = []
    const spawn = (): WorkerHandle => {
      const previousAlive = lifetimes.some((life) => !life.exited || alive(life.pid))
      const handle = forkReviewWorker()
      const life = { pid: handle.pid!, previousAlive, exited: false }
      lifetimes.push(life)
      handle.onExit(() => (life.exited = true))
      return handle
    }
    fx = await reviewFixture({ server: { respond: (request) => (isReviewRequest(request) ? { text: 'Nothing to save.', delayMs: 200 } : undefined) } })
    const { host, events } = fx.host({ spawn })
    const user = (content: string) => [{ role: 'user' as const, content }]
    const a1 = host.enqueue({ sessionId: 'sa', kinds: ['memory'], reasons: [{ code: 'correction' as const }], messages: user('first A'), skillsUsed: [] })
    const a2 = host.enqueue({ sessionId: 'sa', kinds: ['memory'], reasons: [{ code: 'preference' as const }], messages: user('second A'), skillsUsed: ['x'] })
    const b1 = host.enqueue({ sessionId: 'sb', kinds: ['skills'], reasons: [{ code: 'requested' as const }], messages: user('only B'), skillsUsed: [] })
    const a3 = host.enqueue({ sessionId: 'sa', kinds: ['skills'], reasons: [{ code: 'long_task' as const, count: 5 }, { code: 'preference' as const }], messages: user('third A'), skillsUsed: ['y', 'x'] })
    expect(a3).toBe(a2)
    expect(new Set([a1, a2, b1]).size).toBe(3)
    await host.whenIdle()

    expect(await Promise.all([a1, a2, b1].map((id) => host.wait(id)))).toEqual(['done', 'done', 'done'])
    expect(lifetimes).toHaveLength(3)
    expect(lifetimes.map((life) => life.previousAlive)).toEqual([false, false, false])
    expect(new Set(lifetimes.map((life) => life.pid)).size).toBe(3)
    expect(ofType(events, 'review_started').map((e) => e.reviewId)).toEqual([a1, a2, b1])

    const texts = fx.server.chatRequests().map(reviewUserText)
    expect(texts[0]).toContain('first A')
    expect(texts[1]).toContain('third A')
    expect(texts[1]).not.toContain('second A')
    expect(texts[1]).toContain(
      "Why this review runs (automatic hints, often wrong; the transcript decides): a word pattern suggested the user may have stated a preference (often wrong: check the user's own words; a choice for this one task is not a preference); a long task (5 tool calls): there may be a procedure worth keeping, often there is not."
    )
    expect(texts[1]).toMatch(/followed these skills: `x`, `y`/)
    expect(texts[2]).toContain('only B')
    const merged = fx.server.chatRequests()[1].body.messages[0].content as string
    expect(merged).toMatch(/## Memory[\s\S]*## Skills/) // memory + skills: the combined prompt
    expect(host.runs.get(a2)).toMatchObject({ status: 'done', kinds: ['memory', 'skills'], reasons: [{ code: 'preference' }, { code: 'long_task', count: 5 }] })
  })

  it('skips reviews while learning is turned off, without starting a process', async () => {
    fx = await reviewFixture({ config: { learning: { enabled: false } } })
    let spawned = 0
    const { host, events } = fx.host({ spawn: () => (spawned++, forkReviewWorker()) })
    const id = host.enqueue({ sessionId: 's', kinds: ['memory'], reasons: [{ code: 'requested' as const }], messages: [], skillsUsed: [] })
    expect(await host.wait(id)).toBe('skipped')
    expect(spawned).toBe(0)
    expect(events).toEqual([])
    expect(host.runs.list()).toEqual([])
  })

  it('close() stops a running worker and waits for it to exit', async () => {
    fx = await reviewFixture({ server: { respond: () => ({ fault: { type: 'hang' } }) } })
    const { host } = fx.host()
    const id = host.enqueue({ sessionId: 's', kinds: ['memory'], reasons: [{ code: 'requested' as const }], messages: fx.job().messages, skillsUsed: [] })
    const queued = host.enqueue({ sessionId: 'other', kinds: ['memory'], reasons: [{ code: 'requested' as const }], messages: fx.job().messages, skillsUsed: [] })
    await fx.server.waitForChatRequests(1, 20_000)
    const pid = host.runs.get(id)!.pid!
    await host.close()
    expect(alive(pid)).toBe(false)
    expect(await host.wait(id)).toBe('failed')
    expect(await host.wait(queued)).toBe('skipped')
    expect(host.runs.get(id)).toMatchObject({ status: 'failed', error: 'Stopped because Cairn was closing.' })
  })
})

describe('review worker protocol', () => {
  function startWorker(): { handle: WorkerHandle; frames: WorkerMessage[]; exit: Promise<number | null> } {
    const handle = forkReviewWorker()
    const frames: WorkerMessage[] = []
    handle.onMessage((message) => frames.push(message as WorkerMessage))
    const exit = new Promise<number | null>((resolve) => handle.onExit((code) => resolve(code)))
    return { handle, frames, exit }
  }

  it('a frame with another protocol version makes the worker report it and exit with code 70', async () => {
    const { handle, frames, exit } = startWorker()
    await until(() => frames.some((f) => f.type === 'ready'), 'ready', 20_000)
    handle.send({ protocol: REVIEW_PROTOCOL, version: 2, type: 'shutdown' } as never)
    expect(await exit).toBe(WORKER_EXIT.protocolMismatch)
    expect(WORKER_EXIT.protocolMismatch).toBe(70)
    const error = frames.find((f) => f.type === 'error')
    expect(error).toMatchObject({ type: 'error', code: 'protocol_mismatch', protocol: REVIEW_PROTOCOL, version: REVIEW_PROTOCOL_VERSION })
    expect((error as { message: string }).message).toMatch(/cairn\.review v1 but got a frame of cairn\.review v2/)
  })

  it('an invalid start frame is rejected with an error naming the bad fields', async () => {
    const { handle, frames, exit } = startWorker()
    await until(() => frames.some((f) => f.type === 'ready'), 'ready', 20_000)
    expect(frames[0]).toMatchObject({ type: 'ready', pid: handle.pid })
    handle.send({ protocol: REVIEW_PROTOCOL, version: REVIEW_PROTOCOL_VERSION, type: 'start', home: 42, limits: { maxIterations: 0, timeoutMs: 5000 } } as never)
    expect(await exit).toBe(WORKER_EXIT.invalidFrame)
    const error = frames.find((f) => f.type === 'error') as { code: string; message: string }
    expect(error.code).toBe('invalid_frame')
    expect(error.message).toMatch(/rejected a 'start' frame/)
    expect(error.message).toMatch(/home/)
    expect(error.message).toMatch(/job/)
    expect(error.message).toMatch(/limits\.maxIterations/)
  })

  it('refuses a home that does not exist instead of creating an empty one', async () => {
    const { handle, frames, exit } = startWorker()
    await until(() => frames.some((f) => f.type === 'ready'), 'ready', 20_000)
    const home = join(tmpdir(), `cairn-missing-${process.pid}-${Date.now()}`)
    handle.send({
      protocol: REVIEW_PROTOCOL,
      version: REVIEW_PROTOCOL_VERSION,
      type: 'start',
      home,
      provider: { baseURL: 'http://127.0.0.1:9/v1', model: 'scripted', apiKey: null, preset: 'custom', requestTimeoutMs: 1000, maxRetries: 0 },
      job: { reviewId: 'r-missing', sessionId: null, kinds: ['memory'], reasons: [], messages: [], skillsUsed: [] },
      limits: { maxIterations: 1, timeoutMs: 5000 },
      allowSkillCreation: true
    })
    expect(await exit).toBe(WORKER_EXIT.failed)
    expect(frames.find((f) => f.type === 'error')).toMatchObject({ reviewId: 'r-missing', code: 'home_missing' })
    expect(existsSync(home)).toBe(false)
  })
})

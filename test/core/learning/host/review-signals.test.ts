import { spawn, type ChildProcess } from 'node:child_process'
import { createRequire } from 'node:module'
import { join } from 'node:path'
import { pathToFileURL } from 'node:url'
import { afterEach, describe, expect, it } from 'vitest'
import type { ReviewEvent } from '../../../../shared/review-protocol'
import { ReviewRuns, processAlive } from '../../../../electron/core/ledger/review-runs'
import { reviewFixture, until, type ReviewFixture } from '../../../helpers/review-fixture'
import type { HostProcessInput } from './host-process'

type Line = ReviewEvent | { type: 'sigint' } | { type: 'result'; result: string }

let fx: ReviewFixture | null = null
const children: ChildProcess[] = []

afterEach(async () => {
  for (const child of children.splice(0)) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL')
  await fx?.close()
  fx = null
})

/** Starts host-process.ts as the leader of its own process group, so the test can signal that group alone. */
function startHost(input: HostProcessInput): { child: ChildProcess; lines: Line[]; exited: Promise<void> } {
  const tsx = pathToFileURL(createRequire(__filename).resolve('tsx')).href
  const child = spawn(process.execPath, ['--import', tsx, join(__dirname, 'host-process.ts'), JSON.stringify(input)], {
    detached: true,
    stdio: ['ignore', 'pipe', 'inherit']
  })
  children.push(child)
  const lines: Line[] = []
  let buffered = ''
  child.stdout!.on('data', (chunk: Buffer) => {
    buffered += chunk.toString('utf8')
    const parts = buffered.split('\n')
    buffered = parts.pop()!
    for (const part of parts) if (part.trim()) lines.push(JSON.parse(part) as Line)
  })
  const exited = new Promise<void>((resolve) => child.on('close', () => resolve()))
  return { child, lines, exited }
}

function workerPid(lines: Line[]): number | undefined {
  const started = lines.find((line): line is Extract<ReviewEvent, { type: 'review_started' }> => line.type === 'review_started')
  return started?.pid ?? undefined
}

const job = { sessionId: 's', kinds: ['memory' as const], reasons: [{ code: 'requested' as const }], messages: [{ role: 'user' as const, content: 'I use pnpm.' }], skillsUsed: [] }

describe.skipIf(process.platform === 'win32')('signals to the host process', () => {
  it('Ctrl+C in the terminal (SIGINT to the host process group) does not reach the review worker', async () => {
    fx = await reviewFixture()
    fx.server.enqueue({ text: 'Nothing to save.', delayMs: 2_500 })
    const { child, lines, exited } = startHost({ home: fx.home, provider: fx.settings(), job })
    await fx.server.waitForChatRequests(1, 30_000) // the worker is mid-review, waiting for the model
    process.kill(-child.pid!, 'SIGINT')
    await until(() => lines.some((line) => line.type === 'sigint'), 'the host to get the SIGINT')
    await exited

    expect(lines.find((line) => line.type === 'result')).toEqual({ type: 'result', result: 'done' })
    expect(lines.some((line) => line.type === 'review_failed')).toBe(false)
    expect(new ReviewRuns(fx.core.db).list()).toMatchObject([{ status: 'done', summary: { saved: false }, pid: workerPid(lines) }])
  }, 60_000)

  it('a host killed mid-review leaves a row the next host marks as crashed once its worker is gone', async () => {
    fx = await reviewFixture({ server: { respond: () => ({ fault: { type: 'hang' } }) } })
    const { child, lines, exited } = startHost({ home: fx.home, provider: fx.settings(), job })
    await fx.server.waitForChatRequests(1, 30_000)
    const pid = workerPid(lines)!
    child.kill('SIGKILL') // the app or `cairn serve` killed: it records nothing
    await exited
    // Without its host the worker stops (the IPC channel closed); the row still says 'running'.
    await until(() => !processAlive(pid), 'the orphaned worker to stop')
    const reviewId = lines.find((line) => line.type === 'review_queued')!.reviewId
    expect(fx.core.db.prepare('SELECT status FROM review_runs WHERE id = ?').get(reviewId)).toEqual({ status: 'running' })

    const { host } = fx.host()
    expect(host.recovered).toEqual({ crashed: [reviewId], failed: [] })
    const run = host.runs.get(reviewId)!
    expect(run.status).toBe('crashed')
    expect(run.error).toMatch(new RegExp(`worker \\(pid ${pid}\\) is gone without recording how the review ended`))
    expect(run.finishedAt).not.toBeNull()
    expect(host.status().running).toBeNull()
  }, 60_000)
})

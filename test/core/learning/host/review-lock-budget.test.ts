import { afterEach, describe, expect, it } from 'vitest'
import type { ReviewEvent } from '../../../../shared/review-protocol'
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

function failures(events: ReviewEvent[]) {
  return events.filter((event): event is Extract<ReviewEvent, { type: 'review_failed' }> => event.type === 'review_failed')
}

/**
 * Two hosts on one data home (the app and a CLI command, say) review at the same time: the data
 * home's review lock makes the second wait. Its time budget starts when it holds the lock.
 */
describe('two reviews of one home at once', () => {
  it('the second waits for the lock without its wait counting against its time budget', async () => {
    fx = await reviewFixture()
    // First review: 3.5 s with the lock. Second: 1.5 s of its own, inside its 3 s budget only if the wait is not counted.
    fx.server.enqueue({ text: 'Nothing to save.', delayMs: 3_500 }, { text: 'Nothing to save.', delayMs: 1_500 })
    const app = fx.host({ limits: { timeoutMs: 20_000 } })
    const cli = fx.host({ limits: { timeoutMs: 3_000, killGraceMs: 500 } })
    const first = app.host.enqueue(job('app-session'))
    await fx.server.waitForChatRequests(1, 20_000) // the first review holds the lock
    const second = cli.host.enqueue(job('cli-session'))

    expect(await app.host.wait(first)).toBe('done')
    expect(await cli.host.wait(second)).toBe('done')
    expect(failures(cli.events)).toEqual([])
    const stages = cli.events.flatMap((event) => (event.type === 'review_progress' ? [event.stage] : []))
    expect(stages.slice(0, 2)).toEqual(['waiting', 'locked'])
    expect(cli.host.runs.get(second)).toMatchObject({ status: 'done', summary: { saved: false } })
  }, 60_000)

  it('a lock wait longer than the budget ends as a plain failure that does not count towards pausing', async () => {
    fx = await reviewFixture()
    fx.server.enqueue({ text: 'Nothing to save.', delayMs: 4_500 })
    const app = fx.host({ limits: { timeoutMs: 20_000 } })
    // One crash or timeout would pause this host's reviews.
    const cli = fx.host({ limits: { timeoutMs: 1_500, killGraceMs: 500, maxConsecutiveFailures: 1 } })
    const first = app.host.enqueue(job('app-session'))
    await fx.server.waitForChatRequests(1, 20_000)
    const second = cli.host.enqueue(job('cli-session'))

    expect(await cli.host.wait(second)).toBe('failed')
    const [failure] = failures(cli.events)
    expect(failure).toMatchObject({ reviewId: second, crashed: false })
    expect(failure.error).toMatch(/Another review of this data home held the review lock for this review's whole 1.5 s budget, so it did not run/)
    expect(cli.host.runs.get(second)).toMatchObject({ status: 'failed', error: failure.error })
    expect(cli.host.paused).toBe(false)
    expect(cli.host.status()).toMatchObject({ paused: false, pausedReason: null, running: null })
    expect(await app.host.wait(first)).toBe('done')
    expect(fx.server.chatRequests()).toHaveLength(1) // the second review never reached the model
  }, 60_000)
})

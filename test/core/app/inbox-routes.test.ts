import { existsSync } from 'node:fs'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { INBOX_CHECK_MS } from '../../../electron/core/app/handlers/inbox'
import { ProposalStore } from '../../../electron/core/ledger/proposals'
import { appFixture, type AppFixture } from '../../helpers/app-fixture'

let fx: AppFixture | undefined
afterEach(async () => {
  await fx?.close()
  fx = undefined
})

const add = (content: string) => ({ name: 'memory', arguments: { action: 'add', target: 'user', content } })

/** A conversation reviewed now by a real worker whose model makes `calls` one response each (so they are proposed in order). */
async function reviewProposing(app: AppFixture, ...calls: ReturnType<typeof add>[]): Promise<string> {
  const session = app.core.sessions.create({ source: 'cli', model: 'scripted' })
  app.core.sessions.append(session.id, { role: 'user', content: 'I prefer tabs and dark mode.' })
  app.server.enqueue(...calls.map((call) => ({ toolCalls: [call] })), { text: 'Proposed your preferences.' })
  const { reviewId } = await app.ok('learning.reviewNow', { sessionId: session.id })
  await app.waitFor('review.event', (event) => event.type === 'review_finished' && event.reviewId === reviewId, 30_000)
  return reviewId
}

describe('the Inbox routes', () => {
  it('learning.setMode switches to ask; the review then proposes, and status and events count what waits', async () => {
    fx = await appFixture()
    const status = await fx.ok('learning.setMode', { mode: 'ask' })
    expect(status).toMatchObject({ mode: 'ask', pendingProposals: 0, oldestPendingAt: null })
    expect(fx.core.config.get().learning.mode).toBe('ask')
    expect(fx.events.some((e) => e.name === 'settings.changed')).toBe(true)

    const reviewId = await reviewProposing(fx, add('User prefers tabs'), add('User prefers dark mode'))
    await fx.waitFor('inbox.changed', (payload) => payload.pending === 2)
    expect(existsSync(join(fx.home, 'memories', 'USER.md'))).toBe(false)

    const listed = await fx.ok('inbox.list', {})
    expect(listed.pending).toBe(2)
    expect(listed.proposals.map((p) => [p.after, p.state, p.stale, p.reviewId, p.cause])).toEqual([
      ['User prefers dark mode', 'pending', false, reviewId, 'ask_mode'],
      ['User prefers tabs', 'pending', false, reviewId, 'ask_mode']
    ])
    expect(await fx.ok('learning.status')).toMatchObject({ mode: 'ask', pendingProposals: 2, oldestPendingAt: expect.any(Number) })
    expect(await fx.ok('inbox.get', { id: listed.proposals[1].id })).toMatchObject({ after: 'User prefers tabs', meta: { store: 'user' } })
  })

  it('approve, edit-approve and reject each apply (or not) and emit inbox.changed; decided and unknown ids are refused', async () => {
    fx = await appFixture()
    await fx.ok('learning.setMode', { mode: 'ask' })
    await reviewProposing(fx, add('User prefers tabs'), add('User prefers dark mode'), add('User likes jazz'))
    const [jazz, dark, tabs] = (await fx.ok('inbox.list', {})).proposals

    const approved = await fx.ok('inbox.approve', { id: tabs.id })
    expect(approved).toMatchObject({ ok: true, proposal: { state: 'approved' }, ledgerEntry: { kind: 'memory.add', source: 'review', meta: { proposalId: tabs.id } } })
    await fx.waitFor('inbox.changed', (payload) => payload.pending === 2)
    expect(fx.events.some((e) => e.name === 'memory.changed')).toBe(true)

    const edited = await fx.ok('inbox.approve', { id: dark.id, editedAfter: 'User prefers dark mode after sunset' })
    expect(edited).toMatchObject({ ok: true, proposal: { state: 'edited', editedAfter: 'User prefers dark mode after sunset' } })
    expect(await fx.ok('inbox.reject', { id: jazz.id })).toMatchObject({ ok: true, proposal: { state: 'rejected' } })
    await fx.waitFor('inbox.changed', (payload) => payload.pending === 0)
    expect(fx.core.memory.read('user').entries).toEqual(['User prefers tabs', 'User prefers dark mode after sunset'])

    expect(await fx.ok('inbox.reject', { id: tabs.id })).toMatchObject({ ok: false, code: 'decided' })
    expect(await fx.ok('inbox.approve', { id: 4242 })).toMatchObject({ ok: false, code: 'not_found' })
    expect(await fx.call('inbox.get', { id: 4242 })).toMatchObject({ ok: false, error: { code: 'NOT_FOUND' } })
    expect(await fx.call('inbox.approve', { id: 'one' } as never)).toMatchObject({ ok: false, error: { code: 'VALIDATION_FAILED' } })
    const decided = await fx.ok('inbox.list', { states: ['approved', 'edited', 'rejected'] })
    expect(decided.proposals.map((p) => p.state)).toEqual(['rejected', 'edited', 'approved'])
    expect(decided.pending).toBe(0)
  })

  it("approveAll applies one review's proposals and leaves the others waiting", async () => {
    fx = await appFixture()
    await fx.ok('learning.setMode', { mode: 'ask' })
    const first = await reviewProposing(fx, add('User prefers tabs'))
    await reviewProposing(fx, add('User likes jazz'))
    const { results } = await fx.ok('inbox.approveAll', { reviewId: first })
    expect(results).toMatchObject([{ ok: true, proposal: { after: 'User prefers tabs', state: 'approved' } }])
    expect((await fx.ok('inbox.list', {})).proposals.map((p) => p.after)).toEqual(['User likes jazz'])
    await fx.waitFor('inbox.changed', (payload) => payload.pending === 1)
  })

  it('learning.setMode off: no review runs', async () => {
    fx = await appFixture()
    expect(await fx.ok('learning.setMode', { mode: 'off' })).toMatchObject({ mode: 'off' })
    const session = fx.core.sessions.create({ source: 'cli', model: 'scripted' })
    fx.core.sessions.append(session.id, { role: 'user', content: 'I prefer tabs.' })
    const { reviewId } = await fx.ok('learning.reviewNow', { sessionId: session.id })
    expect(await fx.app.host.wait(reviewId)).toBe('skipped')
    expect(fx.server.chatRequests()).toHaveLength(0)
  })
})

describe('proposals another process left', () => {
  it('are counted on the next check and announced to every window', async () => {
    const ticks: Array<{ ms: number; tick: () => void }> = []
    const clock = { now: () => Date.now(), every: (ms: number, tick: () => void) => (ticks.push({ ms, tick }), () => {}) }
    fx = await appFixture({ app: { clock } })
    // A CLI's review in another process: its proposal lands in state.db without an event here.
    new ProposalStore(fx.core.db).add({
      origin: 'review',
      reviewId: 'cli-review',
      sessionId: null,
      kind: 'memory.add',
      target: 'memories/USER.md',
      before: null,
      after: 'User prefers tabs',
      meta: { store: 'user' },
      reasons: [{ code: 'requested' }],
      cause: 'ask_mode',
      rationale: null
    })
    expect(fx.events.some((e) => e.name === 'inbox.changed')).toBe(false)
    for (const { ms, tick } of ticks) if (ms === INBOX_CHECK_MS) tick()
    await fx.waitFor('inbox.changed', (payload) => payload.pending === 1)
  })
})

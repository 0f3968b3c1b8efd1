import { afterEach, describe, expect, it } from 'vitest'
import { appFixture, type AppFixture } from '../../helpers/app-fixture'

let fx: AppFixture | undefined
afterEach(async () => {
  await fx?.close()
  fx = undefined
})

const add = (content: string) => ({ name: 'memory', arguments: { action: 'add', target: 'user', content } })

/** A conversation reviewed now by a real worker whose model makes one call per response, as a small model does. */
async function reviewOf(app: AppFixture, ...calls: ReturnType<typeof add>[]): Promise<{ sessionId: string; reviewId: string }> {
  const session = app.core.sessions.create({ source: 'cli', model: 'scripted' })
  app.core.sessions.append(session.id, { role: 'user', content: 'I prefer tabs, dark mode and jazz while I work.' })
  app.server.enqueue(...calls.map((call) => ({ toolCalls: [call] })), { text: 'Saved what I could.' })
  const { reviewId } = await app.ok('learning.reviewNow', { sessionId: session.id })
  await app.waitFor('review.event', (event) => event.type === 'review_finished' && event.reviewId === reviewId, 30_000)
  return { sessionId: session.id, reviewId }
}

describe('what became of a review (learning.fates, and the notes of sessions.get)', () => {
  it('follows its proposals through approve and reject, and its changes through a revert', async () => {
    fx = await appFixture()
    await fx.ok('learning.setMode', { mode: 'ask' })
    const { sessionId, reviewId } = await reviewOf(fx, add('User prefers tabs'), add('User prefers dark mode'), add('User likes jazz'))
    const fates = async () => (await fx!.ok('learning.fates', { reviewIds: [reviewId, 'no-such-review'] })).fates
    const none = { pending: 0, approved: 0, rejected: 0, setAside: 0, applied: 0, undone: 0 }
    expect(await fates()).toEqual([
      { ...none, reviewId, pending: 3 },
      { ...none, reviewId: 'no-such-review' }
    ])

    const [jazz, dark, tabs] = (await fx.ok('inbox.list', {})).proposals
    const approved = await fx.ok('inbox.approve', { id: tabs.id })
    await fx.ok('inbox.approve', { id: dark.id, editedAfter: 'User prefers dark mode after sunset' })
    await fx.ok('inbox.reject', { id: jazz.id })
    expect((await fates())[0]).toEqual({ ...none, reviewId, approved: 2, rejected: 1, applied: 2 })

    // The note the chat shows after a reload says the same.
    const { learned } = await fx.ok('sessions.get', { sessionId })
    expect(learned?.find((note) => note.reviewId === reviewId)?.fate).toEqual({ ...none, reviewId, approved: 2, rejected: 1, applied: 2 })

    // Reverting an approved change: it was applied, now undone (the revert row is nobody's review).
    if (!approved.ok || !approved.ledgerEntry) throw new Error('the approval wrote no row')
    expect(await fx.ok('timeline.revert', { id: approved.ledgerEntry.id })).toMatchObject({ ok: true })
    expect((await fates())[0]).toEqual({ ...none, reviewId, approved: 2, rejected: 1, applied: 1, undone: 1 })
  })

  it('counts what a review in Auto applied itself, and refuses a request for too many reviews', async () => {
    fx = await appFixture()
    const { reviewId } = await reviewOf(fx, add('User prefers tabs'))
    expect((await fx.ok('learning.fates', { reviewIds: [reviewId] })).fates).toEqual([{ reviewId, pending: 0, approved: 0, rejected: 0, setAside: 0, applied: 1, undone: 0 }])
    const tooMany = Array.from({ length: 101 }, (_, i) => `r${i}`)
    expect(await fx.call('learning.fates', { reviewIds: tooMany })).toMatchObject({ ok: false, error: { code: 'VALIDATION_FAILED' } })
  })
})

import { afterEach, describe, expect, it } from 'vitest'
import type { NewMessage } from '../../../electron/core/sessions'
import { appFixture, type AppFixture } from '../../helpers/app-fixture'

let fx: AppFixture | undefined
afterEach(async () => {
  await fx?.close()
  fx = undefined
})

const TURNS = 3000

/** A 6,000-message conversation (user/answer pairs), its first 40 messages condensed into a summary. */
function longConversation(app: AppFixture) {
  const session = app.core.sessions.create({ title: 'Weeks of work', source: 'desktop', startedAt: 1000 })
  const messages: NewMessage[] = []
  for (let turn = 1; turn <= TURNS; turn++) {
    messages.push({ role: 'user', content: `question ${turn}`, createdAt: 1000 + turn * 10 })
    messages.push({ role: 'assistant', content: `answer ${turn}`, createdAt: 1000 + turn * 10 + 5 })
  }
  const stored = app.core.sessions.appendMany(session.id, messages)
  app.core.sessions.markCompacted(session.id, stored.slice(0, 40).map((m) => m.id))
  return { session, ids: stored.map((m) => m.id) }
}

describe('paged history routes', () => {
  it('opens a long conversation on its last page only, compacted messages included where they fall', async () => {
    fx = await appFixture()
    const { session, ids } = longConversation(fx)
    const opened = await fx.ok('sessions.get', { sessionId: session.id })
    expect(opened.messages).toHaveLength(100)
    expect(opened.messages.map((m) => m.id)).toEqual(ids.slice(-100))
    expect(opened.messages.at(-1)).toMatchObject({ role: 'assistant', content: `answer ${TURNS}` })
    expect(opened.page).toEqual({ hasOlder: true })
    expect(opened.session.messageCount).toBe(6000)

    const small = await fx.ok('sessions.get', { sessionId: session.id, limit: 3 })
    expect(small.messages.map((m) => m.content)).toEqual([`answer ${TURNS - 1}`, `question ${TURNS}`, `answer ${TURNS}`])
    expect(await fx.call('sessions.get', { sessionId: session.id, limit: 501 })).toMatchObject({ ok: false, error: { code: 'VALIDATION_FAILED' } })
  })

  it('pages back to the first message exactly once, nothing skipped or repeated', async () => {
    fx = await appFixture()
    const { session, ids } = longConversation(fx)
    const opened = await fx.ok('sessions.get', { sessionId: session.id, limit: 500 })
    const seen = opened.messages.map((m) => m.id)
    let hasOlder = opened.page.hasOlder
    let requests = 0
    while (hasOlder) {
      const page = await fx.ok('sessions.messages', { sessionId: session.id, before: seen[0], limit: 500 })
      expect(page.messages.length).toBeLessThanOrEqual(500)
      expect(page.hasNewer).toBe(true)
      seen.unshift(...page.messages.map((m) => m.id))
      hasOlder = page.hasOlder
      requests++
    }
    expect(requests).toBe(11)
    expect(seen).toEqual(ids)
    const first = await fx.ok('sessions.messages', { sessionId: session.id, after: 0, limit: 2 })
    expect(first.messages.map((m) => [m.content, m.compacted])).toEqual([
      ['question 1', true],
      ['answer 1', true]
    ])
    expect(first).toMatchObject({ hasOlder: false, hasNewer: true })
  })

  it('centres a page on a deep message and pages forward from there to the end', async () => {
    fx = await appFixture()
    const { session, ids } = longConversation(fx)
    const hit = ids[1234]
    const around = await fx.ok('sessions.messages', { sessionId: session.id, around: hit, limit: 101 })
    expect(around.messages.map((m) => m.id)).toEqual(ids.slice(1234 - 50, 1234 + 51))
    expect(around).toMatchObject({ hasOlder: true, hasNewer: true })

    // Near an end the page fills from the other side.
    const nearEnd = await fx.ok('sessions.messages', { sessionId: session.id, around: ids.at(-2)!, limit: 10 })
    expect(nearEnd.messages.map((m) => m.id)).toEqual(ids.slice(-10))
    expect(nearEnd).toMatchObject({ hasOlder: true, hasNewer: false })

    const next = await fx.ok('sessions.messages', { sessionId: session.id, after: around.messages.at(-1)!.id, limit: 500 })
    expect(next.messages[0].id).toBe(ids[1234 + 51])
    expect(next.hasNewer).toBe(true)
  })

  it('refuses an id from another conversation or a stored version, and more or fewer than one cursor', async () => {
    fx = await appFixture()
    const { session, ids } = longConversation(fx)
    const other = fx.core.sessions.create({ title: 'Other', source: 'desktop' })
    const [foreign] = fx.core.sessions.appendMany(other.id, [{ role: 'user', content: 'elsewhere' }])
    expect(await fx.call('sessions.messages', { sessionId: session.id, around: foreign.id, limit: 50 })).toMatchObject({ ok: false, error: { code: 'NOT_FOUND' } })

    // Answering the last question again keeps the old answer as a stored version, off the shown path.
    fx.core.sessions.forkAfter(session.id, ids.at(-2)!)
    expect(await fx.call('sessions.messages', { sessionId: session.id, around: ids.at(-1)!, limit: 50 })).toMatchObject({
      ok: false,
      error: { code: 'NOT_FOUND' }
    })
    expect(await fx.call('sessions.messages', { sessionId: 'nope', before: 10, limit: 50 })).toMatchObject({ ok: false, error: { code: 'NOT_FOUND' } })
    expect(await fx.call('sessions.messages', { sessionId: session.id, limit: 50 } as never)).toMatchObject({ ok: false, error: { code: 'VALIDATION_FAILED' } })
    expect(await fx.call('sessions.messages', { sessionId: session.id, before: 10, after: 5, limit: 50 })).toMatchObject({
      ok: false,
      error: { code: 'VALIDATION_FAILED' }
    })
    expect(await fx.call('sessions.messages', { sessionId: session.id, before: 10, limit: 0 })).toMatchObject({ ok: false, error: { code: 'VALIDATION_FAILED' } })
  })

  it('marks ‹n/m› versions on whichever page shows them', async () => {
    fx = await appFixture()
    const { session, ids } = longConversation(fx)
    // The answer to question 2000 was made again: the old one is a stored version.
    const question = ids[3998]
    fx.core.sessions.forkAfter(session.id, question)
    fx.core.sessions.append(session.id, { role: 'assistant', content: 'a better answer 2000' })
    const around = await fx.ok('sessions.messages', { sessionId: session.id, around: question, limit: 20 })
    const answer = around.messages.find((m) => m.content === 'a better answer 2000')
    expect(answer?.versions).toMatchObject({ position: 2, total: 2 })
    expect(around.messages.find((m) => m.content === 'answer 2000')).toBeUndefined()
    // The newest page ends with the new answer too, and only it carries the switch.
    const opened = await fx.ok('sessions.get', { sessionId: session.id, limit: 5 })
    expect(opened.messages.at(-1)).toMatchObject({ content: 'a better answer 2000', versions: { position: 2, total: 2 } })
    expect(opened.messages.filter((m) => m.versions)).toHaveLength(1)
  })
})

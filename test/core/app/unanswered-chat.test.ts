import { afterEach, expect, it } from 'vitest'
import { appFixture, type AppFixture } from '../../helpers/app-fixture'

let fx: AppFixture

afterEach(async () => {
  await fx.close()
})

it('the same first message sent again from a new chat answers the unanswered conversation instead of adding another', async () => {
  fx = await appFixture()
  fx.server.enqueue({ fault: { type: 'http', status: 401 } }, { text: 'Hello at last.' })
  const first = await fx.ok('chat.send', { sessionId: null, text: 'hello' })
  await fx.waitFor('chat.status', (s) => s.sessionId === first.sessionId && !s.running)

  // Kept with its failure: listed (marked by failedTurn with one message) and shown again when opened.
  const { sessions } = await fx.ok('sessions.list', {})
  expect(sessions).toMatchObject([{ id: first.sessionId, messageCount: 1, failedTurn: { code: 'auth' } }])
  const opened = await fx.ok('sessions.get', { sessionId: first.sessionId })
  expect(opened.session.failedTurn).toMatchObject({ code: 'auth', messageId: opened.messages[0].id, retryable: false })

  const again = await fx.ok('chat.send', { sessionId: null, text: 'hello' })
  expect(again.sessionId).toBe(first.sessionId)
  await fx.waitFor('chat.event', (e) => e.type === 'turn_finished' && e.reason === 'completed')
  await fx.waitFor('chat.status', (s) => s.sessionId === first.sessionId && !s.running)
  const after = await fx.ok('sessions.list', {})
  expect(after.sessions).toHaveLength(1)
  expect(after.sessions[0].failedTurn).toBeUndefined()
  const answered = await fx.ok('sessions.get', { sessionId: first.sessionId })
  expect(answered.messages.map((m) => [m.role, m.content])).toEqual([
    ['user', 'hello'],
    ['assistant', 'Hello at last.']
  ])
  // A different first message is a conversation of its own.
  fx.server.enqueue({ text: 'Sure.' })
  const other = await fx.ok('chat.send', { sessionId: null, text: 'hello again' })
  expect(other.sessionId).not.toBe(first.sessionId)
  await fx.waitFor('chat.status', (s) => s.sessionId === other.sessionId && !s.running)
})

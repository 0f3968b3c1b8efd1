import { afterEach, expect, it, vi } from 'vitest'
import type { AgentEvent } from '../../../shared/agent-events'
import { appFixture, type AppFixture } from '../../helpers/app-fixture'

let fx: AppFixture

afterEach(async () => {
  vi.restoreAllMocks()
  await fx.close()
})

it('a message the database cannot take shows an error, and the conversation takes the next one', async () => {
  fx = await appFixture()
  fx.server.enqueue({ text: 'First, hello.' }, { text: 'Still here.' })
  const { sessionId } = await fx.ok('chat.send', { sessionId: null, text: 'hello' })
  await fx.waitFor('chat.status', (s) => s.sessionId === sessionId && !s.running)
  fx.events.length = 0

  vi.spyOn(fx.core.sessions, 'append').mockImplementationOnce(() => {
    throw Object.assign(new Error('database is locked'), { code: 'SQLITE_BUSY' })
  })
  const failed = await fx.ok('chat.send', { sessionId, text: 'are you there?' })
  expect(failed.turnId).toBeTruthy()
  await fx.waitFor('chat.status', (s) => s.sessionId === sessionId && !s.running)
  const chatEvents = fx.events.filter((e) => e.name === 'chat.event').map((e) => e.payload as AgentEvent)
  expect(chatEvents.map((e) => e.type)).toEqual(['error', 'turn_finished'])
  expect(chatEvents.every((e) => e.turnId === failed.turnId)).toBe(true)
  expect(await fx.ok('chat.attach', { sessionId })).toMatchObject({ running: false })

  await fx.ok('chat.send', { sessionId, text: 'are you there?' })
  const done = await fx.waitFor('chat.event', (e) => e.type === 'turn_finished' && e.reason === 'completed')
  expect(done).toMatchObject({ text: 'Still here.' })
})

import { afterEach, describe, expect, it } from 'vitest'
import type { AgentEvent } from '../../../shared/agent-events'
import { appFixture, type AppFixture } from '../../helpers/app-fixture'
import { startHonchoServer, type HonchoTestServer } from '../../helpers/honcho-server'

let fx: AppFixture | null = null
let honcho: HonchoTestServer | null = null
afterEach(async () => {
  await fx?.close()
  await honcho?.close()
  fx = honcho = null
})

describe('the memory provider in the app', () => {
  it('conversations recall from and sync to the provider config.json names; the route and the event show what was sent; a switch applies to the next conversation', async () => {
    honcho = await startHonchoServer({ apiKey: 'hk-app' })
    fx = await appFixture({
      server: { fallback: { text: 'Noted.' } },
      config: { memory: { provider: 'honcho', honcho: { baseURL: honcho.url } } },
      env: { CAIRN_MEMORY_PROVIDER_API_KEY: 'hk-app' }
    })
    const first = await fx.ok('chat.send', { sessionId: null, text: 'The team offsite is in Lisbon during the second week of May' })
    await fx.waitFor('chat.status', (s) => s.sessionId === first.sessionId && !s.running)
    await fx.waitFor('memoryProvider.changed', (status) => status?.sent.some((sent) => sent.kind === 'turn') ?? false)
    await fx.app.memoryProvider.current()?.drain()
    expect(honcho.messages.map((m) => m.content)).toContain('The team offsite is in Lisbon during the second week of May')

    const second = await fx.ok('chat.send', { sessionId: null, text: 'Which week of May is the Lisbon offsite?' })
    await fx.waitFor('chat.status', (s) => s.sessionId === second.sessionId && !s.running)
    const started = fx.events.find((e) => e.name === 'chat.event' && (e.payload as AgentEvent).type === 'turn_started' && (e.payload as AgentEvent).sessionId === second.sessionId)
    expect((started?.payload as Extract<AgentEvent, { type: 'turn_started' }>).recalled).toEqual([
      { provider: 'honcho', id: 'msg_1', text: 'The team offsite is in Lisbon during the second week of May' }
    ])
    const shown = await fx.ok('sessions.get', { sessionId: second.sessionId })
    expect(shown.messages.find((m) => m.role === 'user')?.recalled).toHaveLength(1)
    const status = await fx.ok('memoryProvider.status')
    expect(status).toMatchObject({ provider: 'honcho', state: 'ready' })
    expect(status?.sent.map((s) => s.kind)).toContain('query')

    // Back to the built-in provider: the next conversation sends Honcho nothing.
    await fx.ok('settings.update', { patch: { memory: { provider: 'builtin' } } })
    const before = honcho.requests.length
    const third = await fx.ok('chat.send', { sessionId: null, text: 'What about the Lisbon offsite hotel?' })
    await fx.waitFor('chat.status', (s) => s.sessionId === third.sessionId && !s.running)
    expect(honcho.requests.length).toBe(before)
  }, 30_000)
})

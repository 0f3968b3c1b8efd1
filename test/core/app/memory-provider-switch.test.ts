import { afterEach, describe, expect, it, vi } from 'vitest'
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

const settle = () => new Promise((resolve) => setTimeout(resolve, 300))

describe('an open conversation and a provider switched or paused', () => {
  it('switching the provider away, or turning both memory switches off, stops the open conversation reaching the old one', async () => {
    honcho = await startHonchoServer({ apiKey: 'hk-app' })
    fx = await appFixture({
      server: { fallback: { text: 'Noted.' } },
      config: { memory: { provider: 'honcho', honcho: { baseURL: honcho.url } } },
      env: { CAIRN_MEMORY_PROVIDER_API_KEY: 'hk-app' }
    })
    const app = fx
    const finishedTurns = () => app.events.filter((e) => e.name === 'chat.event' && (e.payload as AgentEvent).type === 'turn_finished').length
    const send = async (sessionId: string | null, text: string) => {
      const before = finishedTurns()
      const sent = await app.ok('chat.send', { sessionId, text })
      await vi.waitFor(() => expect(finishedTurns()).toBe(before + 1), { timeout: 10_000 })
      return sent.sessionId
    }
    const open = await send(null, 'The team offsite is in Lisbon during the second week of May')
    await fx.app.memoryProvider.current()?.drain()
    expect(honcho.messages).toHaveLength(2)

    await fx.ok('settings.update', { patch: { memory: { provider: 'builtin' } } })
    await settle()
    const before = honcho.requests.length
    await send(open, 'Which week of May is the Lisbon offsite again?')
    await settle()
    expect(honcho.requests.length).toBe(before)

    // Back to Honcho, then both memory switches off: still nothing reaches it, and the status says none is active.
    await fx.ok('settings.update', { patch: { memory: { provider: 'honcho' } } })
    await send(open, 'And the Lisbon offsite hotel for the second week of May?')
    await fx.app.memoryProvider.current()?.drain()
    expect(honcho.messages).toHaveLength(4)
    await fx.ok('settings.update', { patch: { memory: { enabled: false, userProfileEnabled: false } } })
    await settle()
    const paused = honcho.requests.length
    await send(open, 'Which Lisbon offsite hotel did we pick for May?')
    await settle()
    expect(honcho.requests.length).toBe(paused)
    expect(await fx.ok('memoryProvider.status')).toBeNull()
  }, 30_000)
})

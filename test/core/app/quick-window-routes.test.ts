import { existsSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import type { IpcRoute, RouteInput, RouteOutput } from '../../../shared/ipc/contract'
import type { IpcResult } from '../../../shared/ipc/define'
import { dispatch } from '../../../electron/core/app/router'
import { appFixture, type AppFixture } from '../../helpers/app-fixture'

let fx: AppFixture | undefined
afterEach(async () => {
  await fx?.close()
  fx = undefined
})

/** A request from the quick-prompt window, through the same router every transport uses. */
function fromQuick<R extends IpcRoute>(route: R, input?: RouteInput<R>): Promise<IpcResult<RouteOutput<R>>> {
  return dispatch(fx!.app.handlers, route, input, { sender: 'quick' }) as Promise<IpcResult<RouteOutput<R>>>
}

describe('what the quick-prompt window may ask for', () => {
  it('can do what its page does: load, ask, follow the answer, stop, and hand over to the main window', async () => {
    fx = await appFixture()
    for (const [route, input] of [
      ['app.info', undefined],
      ['settings.get', undefined],
      ['learning.status', undefined],
      ['sessions.list', {}],
      ['window.hideQuick', undefined]
    ] as const) {
      const result = await fromQuick(route, input)
      expect(result.ok, `${route}: ${JSON.stringify(result)}`).toBe(true)
    }
    fx.server.enqueue({ text: 'Four.', chunkDelayMs: 20 })
    const sent = await fromQuick('chat.send', { sessionId: null, text: 'What is 2+2?' })
    expect(sent.ok).toBe(true)
    const { sessionId } = (sent as Extract<typeof sent, { ok: true }>).data
    expect((await fromQuick('chat.attach', { sessionId })).ok).toBe(true)
    await fx.waitFor('chat.status', (s) => s.sessionId === sessionId && !s.running)
    expect((await fromQuick('chat.cancel', { sessionId })).ok).toBe(true)
    expect(await fromQuick('sessions.get', { sessionId })).toMatchObject({ ok: true, data: { messages: [{ content: 'What is 2+2?' }, { content: 'Four.' }] } })
    expect((await fromQuick('window.openMain', { sessionId })).ok).toBe(true)
  })

  it('is refused everything else with FORBIDDEN_ROUTE, and nothing changes', async () => {
    fx = await appFixture()
    const refused = [
      await fromQuick('settings.setApiKey', { apiKey: 'sk-from-quick' }),
      await fromQuick('settings.update', { patch: { ui: { theme: 'dark' } } }),
      await fromQuick('memory.add', { target: 'user', content: 'Planted by the quick window.' }),
      await fromQuick('timeline.revert', { id: 1 }),
      await fromQuick('skills.list'),
      await fromQuick('sessions.delete', { sessionId: 'any' }),
      await fromQuick('learning.setEnabled', { enabled: false }),
      // Refused before its input is looked at: a bad input gets the same answer, not a schema hint.
      await fromQuick('memory.add', { nonsense: true } as never)
    ]
    for (const result of refused) {
      expect(result).toMatchObject({ ok: false, error: { code: 'FORBIDDEN_ROUTE' } })
      if (!result.ok) expect(result.error.message).toMatch(/quick prompt cannot .*Open the main Cairn window/)
    }
    const settings = await fx.ok('settings.get')
    // The key still comes from the environment, not from the quick window.
    expect(settings).toMatchObject({ keyStorage: 'env', keyHint: 'test', config: { ui: { theme: 'system' }, learning: { enabled: true } } })
    expect(existsSync(join(fx.home, 'memories', 'USER.md')) ? readFileSync(join(fx.home, 'memories', 'USER.md'), 'utf8') : '').toBe('')
  })

  it('marks a conversation as the quick prompt’s by who sent it, whatever the input says', async () => {
    fx = await appFixture()
    fx.server.enqueue({ text: 'From quick.' }, { text: 'From the main page.' })
    // An older quick page still sends `source`; the router drops fields the contract does not declare.
    const quick = await fromQuick('chat.send', { sessionId: null, text: 'hello', source: 'main' } as never)
    const main = await fx.call('chat.send', { sessionId: null, text: 'hello', source: 'quick' } as never)
    if (!quick.ok || !main.ok) throw new Error(JSON.stringify({ quick, main }))
    expect(fx.core.sessions.get(quick.data.sessionId)!.source).toBe('browser-quick')
    expect(fx.core.sessions.get(main.data.sessionId)!.source).toBe('browser')
  })
})

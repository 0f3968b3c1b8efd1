import { existsSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { appFixture, type AppFixture } from '../../helpers/app-fixture'
import { startScriptedServer, type ScriptedServer } from '../../scripted-provider'

let fx: AppFixture | undefined
const extraServers: ScriptedServer[] = []
afterEach(async () => {
  await fx?.close()
  fx = undefined
  for (const server of extraServers.splice(0)) await server.close()
})

const modelRequests = (server: ScriptedServer) => server.requests.filter((r) => r.method === 'GET' && r.path === '/v1/models').length

/** Sends and waits for the turn to end (the events seen before are dropped, so an earlier turn's end does not count). */
async function finishTurn(app: AppFixture, input: { sessionId: string | null; text: string; model?: string }) {
  app.events.length = 0
  const { sessionId } = await app.ok('chat.send', input)
  await app.waitFor('chat.status', (s) => s.sessionId === sessionId && !s.running)
  return sessionId
}

describe('the model list', () => {
  it('is fetched once, kept in the data home across a restart of the app, and fetched again on refresh', async () => {
    fx = await appFixture({ server: { models: ['scripted', 'gpt-big', 'gpt-small'] } })
    const first = await fx.ok('models.list', {})
    expect(first).toMatchObject({ baseURL: fx.server.url, models: ['gpt-big', 'gpt-small', 'scripted'], error: null, defaultModel: 'scripted' })
    expect(first.fetchedAt).toEqual(expect.any(Number))
    const file = join(fx.home, 'cache', 'models.json')
    expect(JSON.parse(readFileSync(file, 'utf8'))[fx.server.url].models).toEqual(['gpt-big', 'gpt-small', 'scripted'])

    // A second window (or a reload) gets the cached list without asking the provider.
    expect(await fx.ok('models.list', {})).toEqual(first)
    expect(modelRequests(fx.server)).toBe(1)

    await fx.ok('models.list', { refresh: true })
    expect(modelRequests(fx.server)).toBe(2)
  })

  it('fetches the list of a newly set provider address, and keeps the cached list (saying why) when the provider fails', async () => {
    fx = await appFixture()
    await fx.ok('models.list', {})
    const other = await startScriptedServer({ models: ['llama3'], apiKey: 'sk-other' })
    extraServers.push(other)
    await fx.ok('settings.update', { patch: { provider: { baseURL: other.url } } })
    // The app's key is not this server's: the fetch fails, and there is nothing cached for it yet.
    expect(await fx.ok('models.list', {})).toMatchObject({ baseURL: other.url, models: [], fetchedAt: null, error: 'auth' })
    await fx.ok('settings.setApiKey', { apiKey: 'sk-other' })
    expect(await fx.ok('models.list', {})).toMatchObject({ baseURL: other.url, models: ['llama3'], error: null })

    await other.close()
    const offline = await fx.ok('models.list', { refresh: true })
    expect(offline).toMatchObject({ models: ['llama3'], error: 'unreachable' })
    expect(offline.fetchedAt).toEqual(expect.any(Number))
  })

  it('reads a damaged cache file as empty and writes it again', async () => {
    fx = await appFixture()
    const file = join(fx.home, 'cache', 'models.json')
    await fx.ok('models.list', {})
    writeFileSync(file, '{ not json')
    const list = await fx.ok('models.list', {})
    expect(list.error).toBeNull()
    expect(list.models.length).toBeGreaterThan(0)
    expect(existsSync(file) && JSON.parse(readFileSync(file, 'utf8'))[fx.server.url]).toBeTruthy()
  })
})

describe('a conversation\'s model', () => {
  it('answers with the model it was switched to, from its next turn on, while other conversations keep theirs', async () => {
    fx = await appFixture()
    fx.server.enqueue({ text: 'One.' }, { text: 'Two.' }, { text: 'Three.' }, { text: 'Four.' })
    const switched = await finishTurn(fx, { sessionId: null, text: 'first' })
    const other = await finishTurn(fx, { sessionId: null, text: 'second' })

    const summary = await fx.ok('sessions.setModel', { sessionId: switched, model: 'gpt-big' })
    expect(summary.model).toBe('gpt-big')
    expect(fx.events).toContainEqual({ name: 'sessions.changed', payload: { sessionId: switched } })
    await finishTurn(fx, { sessionId: switched, text: 'again' })
    await finishTurn(fx, { sessionId: other, text: 'again' })
    expect(fx.server.chatRequests().map((r) => (r.body as { model: string }).model)).toEqual(['scripted', 'scripted', 'gpt-big', 'scripted'])
  })

  it('starts a new conversation on the model chosen for it, and follows Settings once set back to the default', async () => {
    fx = await appFixture()
    fx.server.enqueue({ text: 'One.' }, { text: 'Two.' })
    const sessionId = await finishTurn(fx, { sessionId: null, text: 'hello', model: 'gpt-small' })
    expect((await fx.ok('sessions.get', { sessionId })).session.model).toBe('gpt-small')
    expect(await fx.ok('sessions.setModel', { sessionId, model: null })).toMatchObject({ model: null })
    await fx.ok('settings.update', { patch: { provider: { model: 'gpt-big' } } })
    await finishTurn(fx, { sessionId, text: 'again' })
    expect(fx.server.chatRequests().map((r) => (r.body as { model: string }).model)).toEqual(['gpt-small', 'gpt-big'])
  })

  it('refuses a model for an existing conversation through chat.send, and an unknown conversation', async () => {
    fx = await appFixture()
    fx.server.enqueue({ text: 'One.' })
    const sessionId = await finishTurn(fx, { sessionId: null, text: 'hello' })
    expect(await fx.call('chat.send', { sessionId, text: 'x', model: 'gpt-big' })).toMatchObject({ ok: false, error: { code: 'VALIDATION_FAILED' } })
    expect(await fx.call('sessions.setModel', { sessionId: 'nope', model: 'gpt-big' })).toMatchObject({ ok: false, error: { code: 'NOT_FOUND' } })
    expect(await fx.call('sessions.setModel', { sessionId, model: '   ' })).toMatchObject({ ok: false, error: { code: 'VALIDATION_FAILED' } })
  })
})

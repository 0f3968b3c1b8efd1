import { afterEach, describe, expect, it } from 'vitest'
import { appFixture, type AppFixture } from '../../helpers/app-fixture'
import { startScriptedServer, type ScriptedServer } from '../../scripted-provider'
import { say } from '../learning/host/desktop-chat'

let fx: AppFixture | undefined
let own: ScriptedServer | undefined
afterEach(async () => {
  await fx?.close()
  await own?.close()
  fx = undefined
  own = undefined
})

/** The Authorization header of each embeddings request a server saw (undefined: none was sent). */
function keysSeen(server: ScriptedServer): Array<string | undefined> {
  return server.embeddingRequests().map((request) => request.headers.authorization as string | undefined)
}

describe('search.testEmbedding', () => {
  it('embeds one text with the settings being edited and says how many dimensions came back, saving nothing', async () => {
    fx = await appFixture()
    expect(await fx.ok('search.testEmbedding', { model: 'embed-a', baseURL: '', dimensions: 12 })).toEqual({ ok: true, endpoint: fx.server.url, model: 'embed-a', dimensions: 12 })
    // 0: as the model returns (the scripted one: 64).
    expect(await fx.ok('search.testEmbedding', { model: 'embed-a', baseURL: '', dimensions: 0 })).toMatchObject({ ok: true, dimensions: 64 })
    expect(fx.core.config.get().search).toMatchObject({ embeddingModel: '', embeddingBaseURL: '', embeddingDimensions: 0 })
    expect((await fx.ok('search.status')).meaning.state).toBe('off')
  })

  it('names what went wrong by code: a model the server does not have, a rejected key, no model at all', async () => {
    fx = await appFixture({ server: { embeddings: { models: ['embed-a'] } } })
    expect(await fx.ok('search.testEmbedding', { model: 'embed-b' })).toMatchObject({ ok: false, code: 'model_not_found', status: 404, model: 'embed-b', endpoint: fx.server.url })
    fx.server.failEmbeddings({ status: 401 })
    expect(await fx.ok('search.testEmbedding', { model: 'embed-a' })).toMatchObject({ ok: false, code: 'auth', status: 401 })
    expect(await fx.ok('search.testEmbedding', { model: '  ' })).toMatchObject({ ok: false, code: 'not_configured' })
    const tooBig = await fx.call('search.testEmbedding', { model: 'embed-a', dimensions: 9000 })
    expect(tooBig).toMatchObject({ ok: false, error: { code: 'VALIDATION_FAILED' } })
  })

  it('tests the saved settings when given none', async () => {
    fx = await appFixture({ config: { search: { embeddingModel: 'embed-a', embeddingDimensions: 8 } } })
    expect(await fx.ok('search.testEmbedding')).toMatchObject({ ok: true, model: 'embed-a', dimensions: 8 })
  })
})

describe('the embedding key', () => {
  it('reaches an embedding server of its own (Test, the background fill, session_search), and the chat key never does', async () => {
    own = await startScriptedServer({ strict: true, apiKey: 'sk-embed-own' })
    fx = await appFixture()
    await fx.ok('settings.update', { patch: { search: { embeddingModel: 'embed-a', embeddingBaseURL: own.url } } })

    // No key yet: the server of its own gets none (not the chat key), and refuses.
    expect(await fx.ok('search.testEmbedding')).toMatchObject({ ok: false, code: 'auth', status: 401, endpoint: own.url })
    expect(keysSeen(own)).toEqual([undefined])

    const view = await fx.ok('settings.setApiKey', { apiKey: 'sk-embed-own', which: 'embedding' })
    expect(view.embeddingKey).toEqual({ hasApiKey: true, keyHint: '-own', keyStorage: 'memory' })
    expect(JSON.stringify(view)).not.toContain('sk-embed-own')
    expect(await fx.ok('search.testEmbedding')).toMatchObject({ ok: true, endpoint: own.url })

    fx.server.enqueue({ text: 'Water them less.' })
    await say(fx, null, 'my tomato plants have yellow leaves')
    await fx.app.meaning.settled()
    expect((await fx.ok('search.status')).meaning).toMatchObject({ state: 'ready', index: { embedded: 2 }, lastError: null })
    const afterFill = keysSeen(own).length
    expect(afterFill).toBeGreaterThan(1)

    // session_search in a conversation embeds its query on the same server, with the same key.
    fx.server.enqueue({ toolCalls: [{ name: 'session_search', arguments: { query: 'yellow tomato leaves' } }] }, { text: 'You asked about tomatoes.' })
    await say(fx, null, 'what did I ask about my plants?')
    expect(keysSeen(own).length).toBeGreaterThan(afterFill)
    expect(keysSeen(own).slice(1)).toEqual(keysSeen(own).slice(1).map(() => 'Bearer sk-embed-own'))
    expect(fx.server.embeddingRequests()).toEqual([])
  })

  it('a saved key stays with its server: a test of a newly typed server sends only a newly typed key', async () => {
    own = await startScriptedServer({ strict: true, apiKey: 'sk-typed' })
    fx = await appFixture({ config: { search: { embeddingModel: 'embed-a', embeddingBaseURL: 'http://127.0.0.1:9/v1' } } })
    await fx.ok('settings.setApiKey', { apiKey: 'sk-saved-elsewhere', which: 'embedding' })
    expect(await fx.ok('search.testEmbedding', { baseURL: own.url })).toMatchObject({ ok: false, code: 'auth' })
    expect(await fx.ok('search.testEmbedding', { baseURL: own.url, apiKey: 'sk-typed' })).toMatchObject({ ok: true })
    expect(keysSeen(own)).toEqual([undefined, 'Bearer sk-typed'])
  })

  it('in browser mode comes from CAIRN_EMBEDDING_API_KEY, reported as set from the environment', async () => {
    own = await startScriptedServer({ strict: true, apiKey: 'sk-from-env' })
    fx = await appFixture({ env: { CAIRN_EMBEDDING_API_KEY: 'sk-from-env' }, config: { search: { embeddingModel: 'embed-a', embeddingBaseURL: own.url } } })
    expect((await fx.ok('settings.get')).embeddingKey).toEqual({ hasApiKey: true, keyHint: '-env', keyStorage: 'env' })
    expect(await fx.ok('search.testEmbedding')).toMatchObject({ ok: true })
    expect(keysSeen(own)).toEqual(['Bearer sk-from-env'])
  })
})

describe('settings.update with search.*', () => {
  it('saves valid embedding settings and refuses bad ones with a clear error, changing nothing', async () => {
    fx = await appFixture()
    const saved = await fx.ok('settings.update', { patch: { search: { embeddingModel: 'nomic-embed-text', embeddingBaseURL: 'http://localhost:11434/v1', embeddingDimensions: 256 } } })
    expect(saved.config.search).toMatchObject({ embeddingModel: 'nomic-embed-text', embeddingBaseURL: 'http://localhost:11434/v1', embeddingDimensions: 256 })
    for (const embeddingDimensions of [-1, 1.5, 9000, '64']) {
      const refused = await fx.call('settings.update', { patch: { search: { embeddingDimensions } } })
      expect(refused).toMatchObject({ ok: false, error: { code: 'VALIDATION_FAILED', message: expect.stringMatching(/search\.embeddingDimensions/) } })
    }
    expect(fx.core.config.get().search.embeddingDimensions).toBe(256)
  })
})

import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { configSchema } from '../../../shared/config'
import { EMBEDDING_BATCH, EmbeddingClient, MAX_EMBED_CHARS, createEmbedder, resolveEmbeddingSettings, type EmbeddingSettings } from '../../../electron/core/provider/embeddings'
import { ProviderError } from '../../../electron/core/provider/provider-errors'
import type { ProviderSettings } from '../../../electron/core/provider/provider-settings'
import { hashedEmbedding, startScriptedServer, type ScriptedServer } from '../../scripted-provider'

let server: ScriptedServer

beforeEach(async () => {
  server = await startScriptedServer({ apiKey: 'sk-chat' })
})

afterEach(async () => {
  await server.close()
})

function chatSettings(overrides: Partial<ProviderSettings> = {}): ProviderSettings {
  return { preset: 'custom', baseURL: server.url, model: 'chat-model', apiKey: 'sk-chat', requestTimeoutMs: 5000, maxRetries: 2, ...overrides }
}

function client(overrides: Partial<EmbeddingSettings> = {}): EmbeddingClient {
  return new EmbeddingClient({ ...chatSettings(), model: 'embed-small', dimensions: 0, ...overrides })
}

function bodyOf(index: number): { input: string[]; dimensions?: number; model: string; encoding_format: string } {
  return server.embeddingRequests()[index].body as { input: string[]; dimensions?: number; model: string; encoding_format: string }
}

describe('resolveEmbeddingSettings', () => {
  const search = (patch: Record<string, unknown>) => configSchema.parse({ search: patch }).search

  it('is off (null) while no embedding model is set', () => {
    expect(resolveEmbeddingSettings(search({}), chatSettings(), null, {})).toBeNull()
    expect(createEmbedder(search({ embeddingModel: '   ' }), chatSettings(), null, {})).toBeNull()
  })

  it("uses the chat provider's URL and key by default", () => {
    const settings = resolveEmbeddingSettings(search({ embeddingModel: 'embed-small', embeddingDimensions: 256 }), chatSettings(), null, {})
    expect(settings).toMatchObject({ baseURL: server.url, apiKey: 'sk-chat', model: 'embed-small', dimensions: 256 })
  })

  it('never sends the chat key to an embedding endpoint of its own', () => {
    const own = search({ embeddingModel: 'nomic-embed-text', embeddingBaseURL: 'http://localhost:11434/v1/' })
    expect(resolveEmbeddingSettings(own, chatSettings(), null, {})).toMatchObject({ baseURL: 'http://localhost:11434/v1', apiKey: null })
    expect(resolveEmbeddingSettings(own, chatSettings(), null, { CAIRN_EMBEDDING_API_KEY: 'sk-embed' })?.apiKey).toBe('sk-embed')
  })
})

describe('EmbeddingClient', () => {
  it("returns the server's vectors in input order, asking for floats", async () => {
    const vectors = await client().embed(['deploy the blog', 'water the plants'])
    expect(vectors.map((v) => [...v].map((x) => Math.fround(x)))).toEqual([
      hashedEmbedding('deploy the blog', 64, 'embed-small').map(Math.fround),
      hashedEmbedding('water the plants', 64, 'embed-small').map(Math.fround)
    ])
    expect(bodyOf(0)).toMatchObject({ model: 'embed-small', encoding_format: 'float' })
    expect(bodyOf(0)).not.toHaveProperty('dimensions')
  })

  it(`sends at most ${EMBEDDING_BATCH} texts per request`, async () => {
    const texts = Array.from({ length: EMBEDDING_BATCH * 2 + 3 }, (_, i) => `message number ${i}`)
    const vectors = await client().embed(texts)
    expect(vectors).toHaveLength(texts.length)
    expect(server.embeddingRequests().map((_, i) => bodyOf(i).input.length)).toEqual([EMBEDDING_BATCH, EMBEDDING_BATCH, 3])
  })

  it('asks for the configured dimensions and cuts long texts', async () => {
    const [vector] = await client({ dimensions: 16 }).embed(['x'.repeat(MAX_EMBED_CHARS * 3)])
    expect(vector).toHaveLength(16)
    expect(bodyOf(0).dimensions).toBe(16)
    expect(bodyOf(0).input[0].length).toBe(MAX_EMBED_CHARS)
  })

  it('retries a rate limit and a server error, then succeeds', async () => {
    server.failEmbeddings({ status: 429, headers: { 'retry-after-ms': '1' } }, { status: 503, headers: { 'retry-after-ms': '1' } })
    const vectors = await client().embed(['hello'])
    expect(vectors).toHaveLength(1)
    expect(server.embeddingRequests()).toHaveLength(3)
  })

  it('gives up after maxRetries with the reason', async () => {
    server.failEmbeddings(...Array.from({ length: 3 }, () => ({ status: 500, headers: { 'retry-after-ms': '1' } })))
    const failure = await client({ maxRetries: 2 }).embed(['hello']).catch((e: unknown) => e)
    expect(failure).toBeInstanceOf(ProviderError)
    expect((failure as ProviderError).message).toMatch(/server error \(500.*Gave up after 3 attempts/)
  })

  it('does not retry a refused key or an unknown model', async () => {
    const refused = await client({ apiKey: 'sk-wrong' }).embed(['hello']).catch((e: unknown) => e)
    expect((refused as ProviderError).code).toBe('auth')
    server.failEmbeddings({ status: 404 })
    const unknown = await client().embed(['hello']).catch((e: unknown) => e)
    expect((unknown as ProviderError).code).toBe('model_not_found')
    expect((unknown as ProviderError).message).toContain('"embed-small"')
    expect(server.embeddingRequests()).toHaveLength(2)
  })

  it('refuses vectors of another size than asked for, naming the setting', async () => {
    const fixed = await startScriptedServer({ embeddings: { ignoreDimensions: true } })
    try {
      const error = await new EmbeddingClient({ ...chatSettings(), baseURL: fixed.url, apiKey: null, preset: 'ollama', model: 'embed-small', dimensions: 32 })
        .embed(['hello'])
        .catch((e: unknown) => e)
      expect((error as ProviderError).code).toBe('bad_response')
      expect((error as ProviderError).message).toMatch(/asked for 32 dimensions, got 64.*search\.embeddingDimensions/)
    } finally {
      await fixed.close()
    }
  })
})

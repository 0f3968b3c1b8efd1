import OpenAI, { BadRequestError, InternalServerError, NotFoundError } from 'openai'
import { afterEach, describe, expect, it } from 'vitest'
import { hashedEmbedding, startScriptedServer, type ScriptedServer, type ScriptedServerOptions } from '../index'

let server: ScriptedServer | undefined

afterEach(async () => {
  await server?.close()
  server = undefined
})

async function start(options: ScriptedServerOptions = {}): Promise<OpenAI> {
  server = await startScriptedServer(options)
  return new OpenAI({ apiKey: 'sk-test', baseURL: server.url, maxRetries: 0 })
}

const cosine = (a: number[], b: number[]): number => a.reduce((sum, x, i) => sum + x * b[i], 0)

describe('hashedEmbedding', () => {
  it('is deterministic, unit length, closer for texts sharing words, and differs by model', () => {
    const a = hashedEmbedding('deploy the blog to fly', 64, 'm')
    expect(hashedEmbedding('deploy the blog to fly', 64, 'm')).toEqual(a)
    expect(Math.hypot(...a)).toBeCloseTo(1, 10)
    expect(cosine(a, hashedEmbedding('Deploy the BLOG!', 64, 'm'))).toBeGreaterThan(cosine(a, hashedEmbedding('water my tomato plants', 64, 'm')))
    expect(hashedEmbedding('deploy the blog to fly', 64, 'other')).not.toEqual(a)
    expect(hashedEmbedding('', 8)).toEqual([1, 0, 0, 0, 0, 0, 0, 0])
  })
})

describe('POST /v1/embeddings', () => {
  it('serves one vector per input, in order, as floats or as the SDK-default base64', async () => {
    const client = await start()
    const floats = await client.embeddings.create({ model: 'e', input: ['one', 'two'], encoding_format: 'float' })
    expect(floats.data.map((d) => d.index)).toEqual([0, 1])
    expect(floats.data[1].embedding).toEqual(hashedEmbedding('two', 64, 'e'))
    const decoded = await client.embeddings.create({ model: 'e', input: 'one' })
    expect(decoded.data[0].embedding).toEqual(hashedEmbedding('one', 64, 'e').map(Math.fround))
  })

  it('honours `dimensions` and the configured default size', async () => {
    const client = await start({ embeddings: { dimensions: 12 } })
    expect((await client.embeddings.create({ model: 'e', input: 'x', encoding_format: 'float' })).data[0].embedding).toHaveLength(12)
    expect((await client.embeddings.create({ model: 'e', input: 'x', dimensions: 5, encoding_format: 'float' })).data[0].embedding).toHaveLength(5)
  })

  it('plays scripted faults in order, then answers again', async () => {
    const client = await start()
    server!.failEmbeddings({ status: 500 })
    await expect(client.embeddings.create({ model: 'e', input: 'x' })).rejects.toBeInstanceOf(InternalServerError)
    await expect(client.embeddings.create({ model: 'e', input: 'x' })).resolves.toMatchObject({ object: 'list' })
    expect(server!.embeddingRequests()).toHaveLength(2)
  })

  it('refuses an empty input, an input over maxInputChars and an unknown model, saying why', async () => {
    const client = await start({ embeddings: { models: ['e'], maxInputChars: 5 } })
    await expect(client.embeddings.create({ model: 'e', input: [] })).rejects.toThrow(/`input` must be a non-empty string/)
    await expect(client.embeddings.create({ model: 'e', input: 'far too long' })).rejects.toBeInstanceOf(BadRequestError)
    await expect(client.embeddings.create({ model: 'nope', input: 'x' })).rejects.toBeInstanceOf(NotFoundError)
  })
})

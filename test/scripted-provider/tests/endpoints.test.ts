import OpenAI, { AuthenticationError, BadRequestError, NotFoundError } from 'openai'
import { afterEach, describe, expect, it } from 'vitest'
import { startScriptedServer, type ScriptedServer, type ScriptedServerOptions } from '../index'

let server: ScriptedServer | undefined
afterEach(async () => {
  await server?.close()
  server = undefined
})

async function start(options: ScriptedServerOptions = {}, apiKey = 'sk-test'): Promise<OpenAI> {
  server = await startScriptedServer(options)
  return new OpenAI({ apiKey, baseURL: server.url, maxRetries: 0 })
}

const messages: OpenAI.Chat.ChatCompletionMessageParam[] = [{ role: 'user', content: 'hi' }]

describe('non-streaming chat completions', () => {
  it('returns a full chat.completion with text, finish reason and usage', async () => {
    const client = await start({ replies: [{ text: 'Hello there.' }] })
    const completion = await client.chat.completions.create({ model: 'gpt-test', messages })
    expect(completion).toMatchObject({
      object: 'chat.completion',
      model: 'gpt-test',
      choices: [{ index: 0, finish_reason: 'stop', message: { role: 'assistant', content: 'Hello there.' } }]
    })
    expect(completion.id).toMatch(/^chatcmpl-/)
    expect(completion.created).toBeGreaterThan(1_600_000_000)
    expect(completion.usage).toMatchObject({ completion_tokens: 3, prompt_tokens_details: { cached_tokens: 0 } })
  })

  it('returns parallel tool calls with null content and finish_reason tool_calls', async () => {
    const client = await start({
      replies: [{ toolCalls: [{ name: 'memory', arguments: { action: 'add', content: 'likes tea' } }, { name: 'list_skills', arguments: {} }] }]
    })
    const completion = await client.chat.completions.create({ model: 'scripted', messages })
    const choice = completion.choices[0]
    expect(choice.finish_reason).toBe('tool_calls')
    expect(choice.message.content).toBeNull()
    expect(choice.message.tool_calls).toHaveLength(2)
    const [memory, list] = choice.message.tool_calls!
    expect(memory).toMatchObject({ type: 'function', function: { name: 'memory' } })
    expect(memory.type === 'function' && JSON.parse(memory.function.arguments)).toEqual({ action: 'add', content: 'likes tea' })
    expect(list.type === 'function' && list.function.arguments).toBe('{}')
    expect(memory.id).not.toBe(list.id)
  })
})

describe('models, keys and unknown models', () => {
  it('lists the configured models through client.models.list()', async () => {
    const client = await start({ models: ['scripted', 'scripted-large'] })
    const page = await client.models.list()
    expect(page.data.map((model) => model.id)).toEqual(['scripted', 'scripted-large'])
    expect(page.data[0]).toMatchObject({ object: 'model', owned_by: expect.any(String), created: expect.any(Number) })
    expect((await client.models.retrieve('scripted-large')).id).toBe('scripted-large')
  })

  it('lists a default model when none is configured and then accepts any model', async () => {
    const client = await start({ replies: [{ text: 'ok' }] })
    expect((await client.models.list()).data.map((model) => model.id)).toEqual(['scripted'])
    const completion = await client.chat.completions.create({ model: 'anything-goes', messages })
    expect(completion.choices[0].message.content).toBe('ok')
  })

  it('answers 404 model_not_found for a model outside the configured list, without using a reply', async () => {
    const client = await start({ models: ['scripted'], replies: [{ text: 'kept for later' }] })
    const error = await client.chat.completions.create({ model: 'gpt-5', messages }).catch((caught: unknown) => caught)
    expect(error).toBeInstanceOf(NotFoundError)
    expect((error as NotFoundError).status).toBe(404)
    expect((error as NotFoundError).code).toBe('model_not_found')
    expect((error as NotFoundError).message).toContain('gpt-5')
    expect(server!.remainingReplies()).toBe(1)
    const later = await client.chat.completions.create({ model: 'scripted', messages })
    expect(later.choices[0].message.content).toBe('kept for later')
  })

  it('answers 401 invalid_api_key for a wrong key, on chat and on models', async () => {
    const client = await start({ apiKey: 'sk-right', replies: [{ text: 'secret' }] }, 'sk-wrong')
    const chatError = await client.chat.completions.create({ model: 'scripted', messages }).catch((caught: unknown) => caught)
    expect(chatError).toBeInstanceOf(AuthenticationError)
    expect((chatError as AuthenticationError).status).toBe(401)
    expect((chatError as AuthenticationError).code).toBe('invalid_api_key')
    expect((chatError as AuthenticationError).type).toBe('invalid_request_error')
    await expect(client.models.list()).rejects.toBeInstanceOf(AuthenticationError)
    expect(server!.remainingReplies()).toBe(1)

    const right = new OpenAI({ apiKey: 'sk-right', baseURL: server!.url, maxRetries: 0 })
    expect((await right.chat.completions.create({ model: 'scripted', messages })).choices[0].message.content).toBe('secret')
  })

  it('answers 401 when the Authorization header is missing', async () => {
    await start({ apiKey: 'sk-right' })
    const response = await fetch(`${server!.url}/models`)
    expect(response.status).toBe(401)
    const body = (await response.json()) as { error: { message: string; type: string; code: string } }
    expect(body.error).toMatchObject({ type: 'invalid_request_error', code: 'invalid_api_key' })
    expect(body.error.message).toContain('Authorization: Bearer')
  })

  it('answers 400 with a clear message for a body without messages', async () => {
    const client = await start()
    const error = await client.chat.completions.create({ model: 'scripted', messages: [] }).catch((caught: unknown) => caught)
    expect(error).toBeInstanceOf(BadRequestError)
    expect((error as BadRequestError).message).toContain("'messages'")
  })

  it('answers 400 for a body that is not JSON and 404 for an unknown path', async () => {
    await start()
    const notJson = await fetch(`${server!.url}/chat/completions`, { method: 'POST', body: 'not json' })
    expect(notJson.status).toBe(400)
    const unknown = await fetch(`${server!.url}/audio/speech`, { method: 'POST', body: '{}' })
    expect(unknown.status).toBe(404)
    expect(((await unknown.json()) as { error: { message: string } }).error.message).toContain('POST /v1/chat/completions')
  })
})

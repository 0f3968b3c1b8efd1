import OpenAI, { APIConnectionError, APIConnectionTimeoutError, APIError, APIUserAbortError, InternalServerError, RateLimitError } from 'openai'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { collectStream } from '../collect'
import { startScriptedServer, type ScriptedServer } from '../index'

let server: ScriptedServer
let client: OpenAI

beforeEach(async () => {
  server = await startScriptedServer()
  client = new OpenAI({ apiKey: 'sk-test', baseURL: server.url, maxRetries: 0 })
})
afterEach(() => server.close())

const request = { model: 'scripted', messages: [{ role: 'user' as const, content: 'hi' }] }
const streamRequest = { ...request, stream: true as const }

describe('HTTP faults', () => {
  it('answers 429 with Retry-After, then the next reply succeeds', async () => {
    server.enqueue({ fault: { type: 'http', status: 429, headers: { 'Retry-After': '1' } } }, { text: 'after the wait' })
    const error = await client.chat.completions.create(streamRequest).catch((caught: unknown) => caught)
    expect(error).toBeInstanceOf(RateLimitError)
    expect((error as RateLimitError).status).toBe(429)
    expect((error as RateLimitError).headers.get('retry-after')).toBe('1')
    expect((error as RateLimitError).code).toBe('rate_limit_exceeded')
    const retried = await collectStream(await client.chat.completions.create(streamRequest))
    expect(retried.content).toBe('after the wait')
  })

  it('lets the SDK retry a 429 on its own when retries are enabled', async () => {
    server.enqueue({ fault: { type: 'http', status: 429, headers: { 'retry-after-ms': '10' } } }, { text: 'second try' })
    const retrying = new OpenAI({ apiKey: 'sk-test', baseURL: server.url, maxRetries: 1 })
    const completion = await retrying.chat.completions.create(request)
    expect(completion.choices[0].message.content).toBe('second try')
    expect(server.chatRequests()).toHaveLength(2)
  })

  it('answers 500 as an InternalServerError', async () => {
    server.enqueue({ fault: { type: 'http', status: 500 } })
    const error = await client.chat.completions.create(request).catch((caught: unknown) => caught)
    expect(error).toBeInstanceOf(InternalServerError)
    expect((error as APIError).status).toBe(500)
    expect((error as APIError).type).toBe('server_error')
  })

  it('sends a custom fault body and status as given', async () => {
    const body = { error: { message: 'Context length exceeded: 200000 tokens', type: 'invalid_request_error', code: 'context_length_exceeded' } }
    server.enqueue({ fault: { type: 'http', status: 400, body } })
    const error = await client.chat.completions.create(request).catch((caught: unknown) => caught)
    expect((error as APIError).status).toBe(400)
    expect((error as APIError).code).toBe('context_length_exceeded')
    expect((error as APIError).message).toContain('Context length exceeded')
    expect(server.lastChatRequest()!.status).toBe(400)
    expect(await server.lastChatRequest()!.settled).toBe('http-error')
  })
})

describe('broken streams and arguments', () => {
  it('cuts a stream after K chunks without [DONE], and the SDK raises before completion', async () => {
    server.enqueue({ chunks: ['one ', 'two ', 'three ', 'four'], fault: { type: 'cut', afterChunks: 3 } })
    const result = await collectStream(await client.chat.completions.create(streamRequest))
    expect((result.error as Error).message).toMatch(/terminated/)
    expect(result.chunks).toHaveLength(3)
    expect(result.content).toBe('one two ')
    expect(result.finishReason).toBeNull()
    expect(await server.lastChatRequest()!.settled).toBe('cut')
  })

  it('cuts a stream after every chunk but before [DONE]', async () => {
    server.enqueue({ text: 'all there', fault: { type: 'cut', afterChunks: 99 } })
    const stream = client.chat.completions.stream(request)
    await expect(stream.finalChatCompletion()).rejects.toThrow(/terminated/)
  })

  it('cuts a non-streaming reply halfway through its body (the SDK throws undici\'s raw "terminated")', async () => {
    server.enqueue({ text: 'never fully delivered', fault: { type: 'cut', afterChunks: 0 } })
    await expect(client.chat.completions.create(request)).rejects.toThrow(/terminated/)
    expect(await server.lastChatRequest()!.settled).toBe('cut')
  })

  it('sends malformed tool arguments that do not parse as JSON, streamed or not', async () => {
    const call = { name: 'memory', arguments: { action: 'add', content: 'likes tea' }, splitInto: 2 }
    server.enqueue({ toolCalls: [call], fault: { type: 'malformedToolArguments' } }, { toolCalls: [call], fault: { type: 'malformedToolArguments' } })
    const streamed = await collectStream(await client.chat.completions.create(streamRequest))
    expect(streamed.finishReason).toBe('tool_calls')
    expect(streamed.toolCalls[0].name).toBe('memory')
    expect(streamed.toolCalls[0].arguments).toContain('likes tea')
    expect(() => JSON.parse(streamed.toolCalls[0].arguments)).toThrow(SyntaxError)

    const plain = await client.chat.completions.create(request)
    const toolCall = plain.choices[0].message.tool_calls![0]
    expect(toolCall.type === 'function' && (() => JSON.parse(toolCall.function.arguments))).toThrow(SyntaxError)
  })

  it('sends an explicitly invalid arguments string verbatim', async () => {
    server.enqueue({ toolCalls: [{ name: 'memory', arguments: '{"action": "add",' }] })
    const result = await collectStream(await client.chat.completions.create(streamRequest))
    expect(result.toolCalls[0].arguments).toBe('{"action": "add",')
  })
})

describe('slow and hanging replies', () => {
  it('times out on a slow first byte when the client has a timeout', async () => {
    server.enqueue({ text: 'too late', fault: { type: 'slowFirstByte', ms: 5000 } })
    const error = await client.chat.completions.create(streamRequest, { timeout: 200 }).catch((caught: unknown) => caught)
    expect(error).toBeInstanceOf(APIConnectionTimeoutError)
    expect(await server.lastChatRequest()!.settled).toBe('client-disconnected')
  })

  it('delivers a slow first byte when the client waits long enough', async () => {
    server.enqueue({ text: 'worth the wait', fault: { type: 'slowFirstByte', ms: 50 } })
    const result = await collectStream(await client.chat.completions.create(streamRequest))
    expect(result.content).toBe('worth the wait')
  })

  it('hangs until the client aborts, and the server sees the disconnect', async () => {
    server.enqueue({ fault: { type: 'hang' } }, { text: 'next one works' })
    const controller = new AbortController()
    const pending = client.chat.completions.create(streamRequest, { signal: controller.signal }).catch((caught: unknown) => caught)
    const [hung] = await server.waitForChatRequests(1)
    controller.abort()
    expect(await pending).toBeInstanceOf(APIUserAbortError)
    expect(await hung.settled).toBe('client-disconnected')
    expect(hung.status).toBe(0)
    const next = await collectStream(await client.chat.completions.create(streamRequest))
    expect(next.content).toBe('next one works')
  })

  it('aborts a stream midway through its chunk delays', async () => {
    server.enqueue({ chunks: ['a', 'b', 'c', 'd'], chunkDelayMs: 10_000 })
    const controller = new AbortController()
    const stream = await client.chat.completions.create(streamRequest, { signal: controller.signal })
    const seen: string[] = []
    // The SDK ends an aborted stream's iteration quietly instead of throwing.
    for await (const chunk of stream) {
      seen.push(chunk.choices[0]?.delta.content ?? '')
      controller.abort()
    }
    expect(seen).toHaveLength(1)
    expect(await server.lastChatRequest()!.settled).toBe('client-disconnected')
  })

  it('ends a hanging request when the server closes, so close() never waits on it', async () => {
    server.enqueue({ fault: { type: 'hang' } })
    const pending = client.chat.completions.create(request).catch((caught: unknown) => caught)
    const [hung] = await server.waitForChatRequests(1)
    await server.close()
    expect(await pending).toBeInstanceOf(APIConnectionError)
    expect(await hung.settled).toBe('client-disconnected')
  })
})

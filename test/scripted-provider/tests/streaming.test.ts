import OpenAI from 'openai'
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

const ask = (extra: Partial<OpenAI.Chat.ChatCompletionCreateParamsStreaming> = {}) =>
  client.chat.completions.create({ model: 'scripted', messages: [{ role: 'user', content: 'hi' }], stream: true, ...extra })

describe('streaming replies through the real SDK', () => {
  it('streams text in the given chunks, which reassemble to the text', async () => {
    server.enqueue({ chunks: ['Hel', 'lo, ', 'wor', 'ld!'] })
    const result = await collectStream(await ask())
    expect(result.error).toBeUndefined()
    expect(result.contentPieces).toEqual(['Hel', 'lo, ', 'wor', 'ld!'])
    expect(result.content).toBe('Hello, world!')
    expect(result.finishReason).toBe('stop')
    const first = result.chunks[0]
    expect(first).toMatchObject({ object: 'chat.completion.chunk', model: 'scripted', choices: [{ index: 0, delta: { role: 'assistant' } }] })
    expect(first.id).toMatch(/^chatcmpl-/)
    expect(new Set(result.chunks.map((chunk) => chunk.id)).size).toBe(1)
  })

  it('splits plain text word by word by default and keeps every character', async () => {
    const text = '  Two  spaces,\nnew line and trailing space '
    server.enqueue({ text })
    const result = await collectStream(await ask())
    expect(result.content).toBe(text)
    expect(result.contentPieces.length).toBeGreaterThan(4)
  })

  it('streams parallel tool calls whose split arguments reassemble by index', async () => {
    server.enqueue({
      toolCalls: [
        { name: 'read_skill', arguments: { name: 'pdf', section: 'usage' }, splitInto: 3 },
        { id: 'call_given', name: 'list_skills', arguments: '{}' }
      ]
    })
    const result = await collectStream(await ask({ tools: [{ type: 'function', function: { name: 'read_skill', parameters: {} } }] }))
    expect(result.error).toBeUndefined()
    expect(result.finishReason).toBe('tool_calls')
    expect(result.toolCalls).toHaveLength(2)
    const [read, list] = result.toolCalls
    expect(read.name).toBe('read_skill')
    expect(read.argumentPieces).toHaveLength(3)
    expect(JSON.parse(read.arguments)).toEqual({ name: 'pdf', section: 'usage' })
    expect(read.id).toMatch(/^call_/)
    expect(list).toMatchObject({ id: 'call_given', name: 'list_skills', arguments: '{}' })
    expect(result.content).toBe('')
  })

  it('gives auto-generated tool call ids that stay unique across replies', async () => {
    server.enqueue({ toolCalls: [{ name: 'a', arguments: {} }] }, { toolCalls: [{ name: 'b', arguments: {} }] })
    const first = await collectStream(await ask())
    const second = await collectStream(await ask())
    expect(first.toolCalls[0].id).not.toBe(second.toolCalls[0].id)
  })

  it('sends text before tool calls in one reply, and the SDK stream helper assembles the same message', async () => {
    server.enqueue({ text: 'Let me check.', toolCalls: [{ name: 'search', arguments: { query: 'sqlite fts5' }, splitInto: 4 }] })
    const stream = client.chat.completions.stream({ model: 'scripted', messages: [{ role: 'user', content: 'find it' }] })
    const final = await stream.finalChatCompletion()
    const choice = final.choices[0]
    expect(choice.finish_reason).toBe('tool_calls')
    expect(choice.message.content).toBe('Let me check.')
    expect(choice.message.tool_calls).toHaveLength(1)
    const call = choice.message.tool_calls![0]
    expect(call.type === 'function' && JSON.parse(call.function.arguments)).toEqual({ query: 'sqlite fts5' })
  })

  it('honours a custom finish reason', async () => {
    server.enqueue({ text: 'This answer was cut by the max_tok', finishReason: 'length' })
    const result = await collectStream(await ask())
    expect(result.finishReason).toBe('length')
  })

  it('adds a final usage chunk with empty choices only when include_usage is set', async () => {
    server.enqueue({ text: 'one' }, { text: 'two' })
    const withUsage = await collectStream(await ask({ stream_options: { include_usage: true } }))
    const last = withUsage.chunks.at(-1)!
    expect(last.choices).toEqual([])
    expect(last.usage).toMatchObject({ prompt_tokens: expect.any(Number), completion_tokens: 1 })
    expect(last.usage!.total_tokens).toBe(last.usage!.prompt_tokens + last.usage!.completion_tokens)
    expect(last.usage!.prompt_tokens_details?.cached_tokens).toEqual(expect.any(Number))

    const without = await collectStream(await ask())
    expect(without.usage).toBeUndefined()
    expect(without.chunks.every((chunk) => chunk.choices.length === 1)).toBe(true)
  })

  it('reports usage overrides verbatim', async () => {
    server.enqueue({ text: 'ok', usage: { prompt_tokens: 1000, completion_tokens: 7, cached_tokens: 900 } })
    const result = await collectStream(await ask({ stream_options: { include_usage: true } }))
    expect(result.usage).toEqual({ prompt_tokens: 1000, completion_tokens: 7, total_tokens: 1007, prompt_tokens_details: { cached_tokens: 900 } })
  })

  it('still completes when chunks are spaced out by a delay', async () => {
    server.enqueue({ chunks: ['a', 'b', 'c'], chunkDelayMs: 20, delayMs: 20 })
    const result = await collectStream(await ask())
    expect(result.content).toBe('abc')
    expect(result.finishReason).toBe('stop')
    expect(await server.lastChatRequest()!.settled).toBe('completed')
  })
})

import OpenAI from 'openai'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { startScriptedServer, type ScriptedServer } from '../index'

let server: ScriptedServer
let client: OpenAI

beforeEach(async () => {
  server = await startScriptedServer({ fallback: { text: 'Noted.' } })
  client = new OpenAI({ apiKey: 'sk-test', baseURL: server.url, maxRetries: 0 })
})
afterEach(() => server.close())

type Message = OpenAI.Chat.ChatCompletionMessageParam
const systemPrompt = `You are Cairn. ${'Remember what the user tells you and keep skills tidy. '.repeat(40)}`
const tools: OpenAI.Chat.ChatCompletionTool[] = [
  { type: 'function', function: { name: 'memory', description: 'Edit memory', parameters: { type: 'object', properties: {} } } }
]

async function usageFor(messages: Message[], withTools = true): Promise<OpenAI.CompletionUsage> {
  const stream = await client.chat.completions.create({
    model: 'scripted',
    messages,
    ...(withTools ? { tools } : {}),
    stream: true,
    stream_options: { include_usage: true }
  })
  let usage: OpenAI.CompletionUsage | undefined
  for await (const chunk of stream) usage = chunk.usage ?? usage
  return usage!
}

const cached = (usage: OpenAI.CompletionUsage): number => usage.prompt_tokens_details?.cached_tokens ?? -1

describe('usage and the prefix-cache imitation', () => {
  it('estimates prompt tokens as ceil(chars / 4) of the serialised messages and tools', async () => {
    const messages: Message[] = [{ role: 'system', content: systemPrompt }, { role: 'user', content: 'héllo 👋' }]
    const usage = await usageFor(messages)
    const chars = JSON.stringify(messages).length + JSON.stringify(tools).length
    expect(usage.prompt_tokens).toBe(Math.ceil(chars / 4))
    expect(usage.completion_tokens).toBe(Math.ceil('Noted.'.length / 4))
    expect(cached(usage)).toBe(0)
  })

  it('reports a growing cached share while the conversation only appends', async () => {
    const history: Message[] = [{ role: 'system', content: systemPrompt }, { role: 'user', content: 'I like green tea.' }]
    const first = await usageFor(history)
    history.push({ role: 'assistant', content: 'Noted.' }, { role: 'user', content: 'And I live in Lisbon.' })
    const second = await usageFor(history)
    history.push({ role: 'assistant', content: 'Noted.' }, { role: 'user', content: 'What do I drink?' })
    const third = await usageFor(history)

    expect(cached(first)).toBe(0)
    expect(cached(second)).toBeGreaterThan(systemPrompt.length / 4)
    expect(cached(third)).toBeGreaterThan(cached(second))
    expect(cached(third) / third.prompt_tokens).toBeGreaterThan(0.8)
    expect(cached(third)).toBeLessThan(third.prompt_tokens)
  })

  it('caches a byte-identical request almost entirely', async () => {
    const messages: Message[] = [{ role: 'system', content: systemPrompt }, { role: 'user', content: 'same' }]
    await usageFor(messages)
    const repeat = await usageFor(messages)
    expect(cached(repeat)).toBe(Math.floor((JSON.stringify(messages).length + JSON.stringify(tools).length) / 4))
  })

  it('keeps only the tool definitions cached when the system prompt changes (tools lead the prompt)', async () => {
    const history: Message[] = [{ role: 'system', content: systemPrompt }, { role: 'user', content: 'I like green tea.' }]
    await usageFor(history)
    const changed: Message[] = [{ role: 'system', content: `Memory: likes tea. ${systemPrompt}` }, history[1]]
    const after = await usageFor(changed)
    const toolTokens = JSON.stringify(tools).length / 4
    expect(cached(after)).toBeGreaterThanOrEqual(Math.floor(toolTokens))
    expect(cached(after)).toBeLessThan(toolTokens + 10)
    expect(after.prompt_tokens).toBeGreaterThan(500)
    const withoutTools = await usageFor([{ role: 'system', content: `Other: ${systemPrompt}` }, history[1]], false)
    expect(cached(withoutTools)).toBeLessThan(10)
  })

  it('matches against any earlier request, not only the previous one', async () => {
    const conversationA: Message[] = [{ role: 'system', content: systemPrompt }, { role: 'user', content: 'Topic A' }]
    const unrelated: Message[] = [{ role: 'system', content: 'Summarise the following text.' }, { role: 'user', content: 'x' }]
    await usageFor(conversationA)
    await usageFor(unrelated)
    const continued = await usageFor([...conversationA, { role: 'assistant', content: 'Noted.' }, { role: 'user', content: 'more' }])
    expect(cached(continued)).toBeGreaterThan(systemPrompt.length / 4)
  })

  it('does not warm the cache with a request that failed with an HTTP fault', async () => {
    const messages: Message[] = [{ role: 'system', content: systemPrompt }, { role: 'user', content: 'retry me' }]
    server.enqueue({ fault: { type: 'http', status: 429, headers: { 'retry-after': '1' } } })
    await expect(usageFor(messages)).rejects.toMatchObject({ status: 429 })
    const retried = await usageFor(messages)
    expect(cached(retried)).toBe(0)
  })
})

import { mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import OpenAI, { InternalServerError } from 'openai'
import { afterEach, describe, expect, it } from 'vitest'
import {
  loadScriptFile,
  ScriptError,
  startScriptedServer,
  type ScriptedServer,
  type ScriptedServerOptions
} from '../index'

let server: ScriptedServer | undefined
afterEach(async () => {
  await server?.close()
  server = undefined
})

async function start(options: ScriptedServerOptions = {}): Promise<OpenAI> {
  server = await startScriptedServer(options)
  return new OpenAI({ apiKey: 'sk-test', baseURL: server.url, maxRetries: 0 })
}

async function say(client: OpenAI, content: string): Promise<string | null> {
  const completion = await client.chat.completions.create({ model: 'scripted', messages: [{ role: 'user', content }] })
  return completion.choices[0].message.content
}

describe('where replies come from', () => {
  it('plays the queue in order, then respond(), then rules, then the fallback', async () => {
    const client = await start({
      replies: [{ text: 'queued 1' }, { text: 'queued 2' }],
      respond: (request) => (request.body.messages.length > 1 ? { text: 'from respond' } : undefined),
      rules: [{ contains: 'WEATHER', reply: { text: 'Sunny (rule).' } }],
      fallback: { text: 'fallback' }
    })
    expect(await say(client, 'a')).toBe('queued 1')
    expect(await say(client, 'b')).toBe('queued 2')
    const fromRespond = await client.chat.completions.create({
      model: 'scripted',
      messages: [{ role: 'system', content: 'sys' }, { role: 'user', content: 'weather?' }]
    })
    expect(fromRespond.choices[0].message.content).toBe('from respond')
    expect(await say(client, 'How is the weather today?')).toBe('Sunny (rule).')
    expect(await say(client, 'something else')).toBe('fallback')
    expect(server!.chatRequests().map((request) => request.servedBy)).toEqual(['queue', 'queue', 'respond', 'rule', 'fallback'])
  })

  it('lets a test enqueue more replies while running and reports what is left', async () => {
    const client = await start()
    server!.enqueue({ text: 'x' }, { text: 'y' })
    expect(server!.remainingReplies()).toBe(2)
    expect(await say(client, 'go')).toBe('x')
    expect(server!.remainingReplies()).toBe(1)
  })

  it('gives respond() the recorded request, and accepts async replies', async () => {
    const client = await start({ respond: async (request) => ({ text: `echo #${request.index}: ${request.body.model}` }) })
    expect(await say(client, 'hi')).toBe('echo #1: scripted')
  })

  it('matches regex rules and stops a rule after its `times`', async () => {
    const client = await start({
      rules: [
        { regex: '^remember (.+)$', flags: 'i', times: 1, reply: { toolCalls: [{ name: 'memory', arguments: { action: 'add' } }] } },
        { regex: 'remember', reply: { text: 'already remembered' } }
      ]
    })
    const first = await client.chat.completions.create({ model: 'scripted', messages: [{ role: 'user', content: 'Remember tea' }] })
    expect(first.choices[0].message.tool_calls?.[0]).toMatchObject({ function: { name: 'memory' } })
    expect(await say(client, 'remember tea')).toBe('already remembered')
  })

  it('matches rules against the last user message only, including text parts', async () => {
    const client = await start({ rules: [{ contains: 'pdf', reply: { text: 'pdf rule' } }] })
    const completion = await client.chat.completions.create({
      model: 'scripted',
      messages: [
        { role: 'user', content: 'make a pdf' },
        { role: 'assistant', content: 'ok' },
        { role: 'user', content: [{ type: 'text', text: 'now a PDF again' }] }
      ]
    })
    expect(completion.choices[0].message.content).toBe('pdf rule')
    expect(await say(client, 'nothing relevant')).toBe('(scripted) You said: nothing relevant')
  })

  it('fires rules after a user message by default, and `after: tool` rules after a tool result', async () => {
    const client = await start({
      rules: [
        { contains: 'remember', reply: { toolCalls: [{ id: 'call_1', name: 'memory', arguments: { action: 'add' } }] } },
        { contains: 'remember', after: 'tool', reply: { text: 'Saved.' } },
        { contains: 'anything', after: 'any', reply: { text: 'any time' } }
      ]
    })
    const history: OpenAI.Chat.ChatCompletionMessageParam[] = [{ role: 'user', content: 'remember I like tea' }]
    const call = await client.chat.completions.create({ model: 'scripted', messages: history })
    expect(call.choices[0].finish_reason).toBe('tool_calls')
    history.push(call.choices[0].message, { role: 'tool', tool_call_id: 'call_1', content: '{"success":true}' })
    const closing = await client.chat.completions.create({ model: 'scripted', messages: history })
    expect(closing.choices[0].message.content).toBe('Saved.')

    const anyTurn = await client.chat.completions.create({
      model: 'scripted',
      messages: [{ role: 'user', content: 'anything' }, call.choices[0].message, { role: 'tool', tool_call_id: 'call_1', content: 'ok' }]
    })
    expect(anyTurn.choices[0].message.content).toBe('any time')
  })

  it('answers unscripted requests with an obviously fake echo so nothing hangs', async () => {
    const client = await start()
    expect(await say(client, 'Hello?')).toBe('(scripted) You said: Hello?')
  })

  it('ends a turn with plain text after a tool result when nothing is scripted', async () => {
    const client = await start({ rules: [{ contains: 'list', reply: { toolCalls: [{ id: 'call_9', name: 'list_skills', arguments: {} }] } }] })
    const history: OpenAI.Chat.ChatCompletionMessageParam[] = [{ role: 'user', content: 'list my skills' }]
    const call = await client.chat.completions.create({ model: 'scripted', messages: history })
    history.push(call.choices[0].message, { role: 'tool', tool_call_id: 'call_9', content: '["pdf","git"]' })
    const next = await client.chat.completions.create({ model: 'scripted', messages: history })
    expect(next.choices[0].finish_reason).toBe('stop')
    expect(next.choices[0].message.content).toBe('(scripted) The tool returned: ["pdf","git"]')
  })

  it('answers 500 in strict mode when nothing is scripted, naming what to do', async () => {
    const client = await start({ strict: true, replies: [{ text: 'only one' }] })
    expect(await say(client, 'one')).toBe('only one')
    const error = await say(client, 'two').catch((caught: unknown) => caught)
    expect(error).toBeInstanceOf(InternalServerError)
    expect((error as InternalServerError).message).toContain('enqueue another reply')
  })

  it('answers 500 with the reason when respond() returns an invalid reply or throws', async () => {
    let calls = 0
    const client = await start({
      respond: () => {
        calls++
        if (calls === 1) return { toolCalls: [{ arguments: {} }] } as never
        throw new Error('boom in the test script')
      }
    })
    const invalid = await say(client, 'a').catch((caught: unknown) => caught)
    expect((invalid as InternalServerError).status).toBe(500)
    expect((invalid as InternalServerError).message).toContain('toolCalls[0].name')
    const thrown = await say(client, 'b').catch((caught: unknown) => caught)
    expect((thrown as InternalServerError).message).toContain('boom in the test script')
  })
})

describe('validation of scripts', () => {
  it('rejects an invalid reply at enqueue time with the path of the problem', async () => {
    await start()
    expect(() => server!.enqueue({ text: 'a' }, { toolCalls: [{ name: 'x', arguments: {}, splitInto: 0 }] })).toThrow(/reply #2.*\n.*splitInto/s)
    expect(() => server!.enqueue({ text: 'abc', chunks: ['a', 'b'] })).toThrow(/chunks must join/)
    expect(() => server!.enqueue({ text: 'no calls', fault: { type: 'malformedToolArguments' } })).toThrow(/needs at least one/)
    expect(() => server!.enqueue({ tool_calls: [] } as never)).toThrow(/Unrecognized key: "tool_calls"/)
    expect(server!.remainingReplies()).toBe(0)
  })

  it('rejects a rule with a broken regex or without a matcher', async () => {
    await expect(startScriptedServer({ rules: [{ regex: '(', reply: { text: 'x' } }] })).rejects.toThrow(/regular expression/)
    await expect(startScriptedServer({ rules: [{ reply: { text: 'x' } }] })).rejects.toThrow(/exactly one of `contains` or `regex`/)
  })

  it('loads a script file, and explains a missing file, bad JSON or a bad field', () => {
    const dir = mkdtempSync(join(tmpdir(), 'cairn-'))
    const good = join(dir, 'good.json')
    writeFileSync(good, JSON.stringify({ replies: [{ text: 'hi' }], rules: [{ contains: 'x', reply: { text: 'y' } }], models: ['m'] }))
    expect(loadScriptFile(good)).toMatchObject({ replies: [{ text: 'hi' }], models: ['m'] })

    expect(() => loadScriptFile(join(dir, 'missing.json'))).toThrow(/Cannot read script file.*--script/)
    const broken = join(dir, 'broken.json')
    writeFileSync(broken, '{"replies": [')
    expect(() => loadScriptFile(broken)).toThrow(/not valid JSON/)
    const wrong = join(dir, 'wrong.json')
    writeFileSync(wrong, JSON.stringify({ replies: [{ fault: { type: 'http', status: 'soon' } }] }))
    expect(() => loadScriptFile(wrong)).toThrow(ScriptError)
    expect(() => loadScriptFile(wrong)).toThrow(/replies\[0\]\.fault\.status/)
  })
})

describe('recorded requests', () => {
  it('records method, path, headers, parsed body and time for every request', async () => {
    const client = await start({ replies: [{ text: 'ok' }] })
    const before = Date.now()
    await client.chat.completions.create({
      model: 'scripted',
      messages: [{ role: 'user', content: 'hi' }],
      tools: [{ type: 'function', function: { name: 'memory', parameters: { type: 'object' } } }],
      temperature: 0.2
    })
    await client.models.list()
    const [chat, models] = server!.requests
    expect(chat).toMatchObject({ index: 1, method: 'POST', path: '/v1/chat/completions', status: 200 })
    expect(chat.headers.authorization).toBe('Bearer sk-test')
    expect(chat.body).toMatchObject({ model: 'scripted', temperature: 0.2, tools: [{ function: { name: 'memory' } }] })
    expect(chat.time).toBeGreaterThanOrEqual(before)
    expect(models).toMatchObject({ index: 2, method: 'GET', path: '/v1/models' })
    expect(server!.chatRequests()).toEqual([chat])
    expect(server!.lastChatRequest()).toBe(chat)
    expect(server!.lastRequest()).toBe(models)
  })

  it('lets a test await the N-th request before it is sent', async () => {
    const client = await start({ fallback: { text: 'ok' } })
    const secondChat = server!.waitForChatRequests(2)
    await client.models.list()
    await say(client, 'first')
    await say(client, 'second')
    const chats = await secondChat
    expect(chats.map((request) => request.body.messages[0].content)).toEqual(['first', 'second'])
    expect(await server!.waitForRequests(3)).toHaveLength(3)
  })

  it('rejects a wait that times out, listing what did arrive', async () => {
    const client = await start()
    await client.models.list()
    await expect(server!.waitForChatRequests(1, 50)).rejects.toThrow(/Expected 1 chat request within 50 ms but got 0 \(all requests: GET \/v1\/models\)/)
  })
})

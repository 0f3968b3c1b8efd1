import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import type { CompressionEvent } from '../../../electron/core/agent/agent-session'
import { SUMMARY_PREFIX } from '../../../electron/core/agent/history'
import { searchSessions, type MessageRecord } from '../../../electron/core/sessions'
import type { ConfigPatch } from '../../../shared/config'
import { agentFixture, type AgentFixture, type Recorded } from '../../helpers/agent-fixture'
import type { RecordedChatRequest, ScriptedReply } from '../../scripted-provider'

/**
 * The full tool set alone is ~3,600 tokens, so the window is 20,000 tokens (threshold 10,000) and the
 * messages are long: a compression then comes after a handful of turns, as it would in a real session.
 */
const WINDOW: ConfigPatch = { context: { windowTokens: 20_000, compressAt: 0.5 } }
const THRESHOLD = 10_000

type RequestMessage = {
  role: string
  content: string | null
  tool_calls?: Array<{ id: string; function: { name: string; arguments: string } }>
  tool_call_id?: string
}

let fx: AgentFixture | undefined

afterEach(async () => {
  await fx?.close()
  fx = undefined
})

/** Deterministic filler prose, different for every seed, roughly `chars` long. */
function filler(seed: number, chars: number): string {
  const words = ['river', 'lantern', 'granite', 'meadow', 'copper', 'harbor', 'willow', 'ember', 'quartz', 'saffron', 'tundra', 'orchid']
  const out: string[] = []
  let length = 0
  for (let i = 0; length < chars; i++) {
    const word = words[(seed * 7 + i * 5 + (i >> 3)) % words.length]
    out.push(word)
    length += word.length + 1
  }
  return out.join(' ')
}

const userText = (turn: number) => `Question ${turn} about subject${turn}: ${filler(turn, 1200)}`
const answerText = (turn: number) => `Answer ${turn} on subject${turn}: ${filler(turn + 100, 2000)}`

function isSummaryRequest(request: RecordedChatRequest): boolean {
  const first = request.body.messages[0]
  return first.role === 'system' && typeof first.content === 'string' && first.content.startsWith('You are condensing')
}

interface Script {
  /** Decides the main model's replies; the summariser's are answered separately. */
  main: (request: RecordedChatRequest) => ScriptedReply | undefined
  summary: (count: number) => ScriptedReply
}

interface CompressionRig {
  f: AgentFixture
  summaryRequests: () => RecordedChatRequest[]
  mainRequests: () => RecordedChatRequest[]
  compressions: CompressionEvent[]
  open(sessionId?: string): Recorded
}

async function rig(script: Partial<Script> = {}, config: ConfigPatch = WINDOW): Promise<CompressionRig> {
  let summaries = 0
  const main = script.main ?? answerByTurn
  const summary = script.summary ?? ((n: number) => ({ text: `## Goal\nAnswer the user's questions (summary ${n}).\n## Critical context\nsummary-marker-${n}` }))
  const f = await agentFixture({
    config,
    server: { respond: (request) => (isSummaryRequest(request) ? summary(++summaries) : main(request)) }
  })
  fx = f
  const compressions: CompressionEvent[] = []
  return {
    f,
    compressions,
    summaryRequests: () => f.server.chatRequests().filter(isSummaryRequest),
    mainRequests: () => f.server.chatRequests().filter((request) => !isSummaryRequest(request)),
    open: (sessionId) =>
      f.open({
        sessionId,
        hooks: {
          beforeCompression: (event) => {
            compressions.push({ sessionId: event.sessionId, messages: [...event.messages] })
          }
        }
      })
  }
}

/** The main model answers each question with its long answer; "remember" makes it save a memory first. */
function answerByTurn(request: RecordedChatRequest): ScriptedReply {
  const messages = request.body.messages as RequestMessage[]
  const last = messages.at(-1)!
  if (last.role === 'tool') return { text: 'Saved.' }
  const turn = Number(/^Question (\d+)/.exec(last.content ?? '')?.[1] ?? 0)
  if (/remember/i.test(last.content ?? '')) {
    return { toolCalls: [{ name: 'memory', arguments: { action: 'add', target: 'memory', content: 'The staging host is stg-7.internal' } }] }
  }
  return { text: answerText(turn) }
}

function messagesOf(request: RecordedChatRequest): RequestMessage[] {
  return request.body.messages as RequestMessage[]
}

/** Every tool call is answered right after its assistant message, and no tool result stands alone. */
function expectToolPairs(messages: RequestMessage[]): void {
  for (let i = 0; i < messages.length; i++) {
    const message = messages[i]
    if (message.role === 'assistant' && message.tool_calls?.length) {
      const results: string[] = []
      for (let j = i + 1; j < messages.length && messages[j].role === 'tool'; j++) results.push(messages[j].tool_call_id!)
      expect(results.sort()).toEqual(message.tool_calls.map((call) => call.id).sort())
    }
    if (message.role === 'tool') {
      let owner = i - 1
      while (owner >= 0 && messages[owner].role === 'tool') owner--
      expect(messages[owner]?.role).toBe('assistant')
      expect(messages[owner].tool_calls?.map((call) => call.id)).toContain(message.tool_call_id)
    }
  }
}

/** What the model is sent for these stored records (the same shape the provider receives). */
function asRequestMessages(records: MessageRecord[]): RequestMessage[] {
  return records.map((record) => {
    if (record.role === 'summary') return { role: 'user', content: SUMMARY_PREFIX + record.content }
    if (record.role === 'tool') return { role: 'tool', tool_call_id: record.toolCallId!, content: record.content }
    if (record.role === 'assistant' && record.toolCalls?.length) {
      return {
        role: 'assistant',
        content: record.content || null,
        tool_calls: record.toolCalls.map((c) => ({ id: c.id, type: 'function', function: { name: c.name, arguments: c.arguments } }))
      }
    }
    return { role: record.role, content: record.content }
  })
}

async function turnsUntilCompressed(r: CompressionRig, recorded: Recorded, from: number, count: number, maxTurns = 20): Promise<number> {
  let turn = from
  while (r.compressions.length < count) {
    if (turn - from > maxTurns) throw new Error(`no compression after ${maxTurns} turns`)
    const summary = await recorded.session.runTurn(userText(turn)).done
    expect(summary.reason).toBe('completed')
    turn++
  }
  return turn
}

describe('context compression', () => {
  it('summarises the middle with the model and keeps the prompt, the first exchange and the latest turns', async () => {
    const r = await rig()
    const recorded = r.open()
    const { session } = recorded
    const promptAtStart = session.systemPrompt
    await session.runTurn(userText(1)).done
    await session.runTurn('Please remember that the staging host is stg-7.internal. quokka').done
    expect(session.systemPrompt).toBe(promptAtStart) // frozen until the compression
    const allBefore = () => r.f.core.sessions.messages(session.id)
    let lastTurn = 2
    let before: MessageRecord[] = []
    while (r.compressions.length === 0) {
      before = allBefore()
      lastTurn++
      await session.runTurn(userText(lastTurn)).done
      if (lastTurn > 25) throw new Error('never compressed')
    }

    // The summariser was asked once, with the structured template and without tools.
    const [summaryRequest] = r.summaryRequests()
    expect(r.summaryRequests()).toHaveLength(1)
    const template = messagesOf(summaryRequest)[0].content!
    for (const section of ['## Goal', '## Constraints and preferences', '## Completed actions', '## Current state', '## Key decisions', '## Open questions', '## Relevant files and commands', '## Remaining work', '## Critical context']) {
      expect(template).toContain(section)
    }
    expect(template).toMatch(/\[REDACTED\]/)
    expect(summaryRequest.body.tools).toBeUndefined()
    const transcript = messagesOf(summaryRequest)[1].content!

    // The hook saw exactly the messages summarised, which are now compacted in the database.
    const [event] = r.compressions
    expect(event.sessionId).toBe(session.id)
    const middle = event.messages
    const compacted = r.f.core.sessions.messages(session.id, { includeCompacted: true }).filter((m) => m.compacted)
    expect(compacted.map((m) => m.id)).toEqual(middle.map((m) => m.id))
    for (const record of middle) if (record.content) expect(transcript).toContain(record.content.slice(0, 200))
    expect(transcript).not.toContain(userText(1).slice(0, 200))
    expect(transcript).not.toContain(userText(lastTurn).slice(0, 200))

    // head = first exchange, middle = everything up to the kept tail, tail = the latest turns.
    const head = before.slice(0, 2)
    expect(head.map((m) => m.role)).toEqual(['user', 'assistant'])
    expect(middle[0].id).toBe(before[2].id)
    const tail = before.filter((m) => m.id > middle.at(-1)!.id)
    expect(tail.length).toBeGreaterThan(0)
    expect(middle.some((m) => m.content?.includes('quokka'))).toBe(true)

    // The summary is its own stored message and stands for the middle.
    const summaryRecord = r.f.core.sessions.messages(session.id).find((m) => m.role === 'summary')!
    expect(summaryRecord.content).toContain('summary-marker-1')
    expect(summaryRecord.meta).toEqual({ coversThrough: middle.at(-1)!.id })

    // The next call: the rebuilt prompt, the first exchange, the summary, the tail, the new question, verbatim.
    const afterCompression = r.mainRequests().find((request) => messagesOf(request).some((m) => m.content?.startsWith(SUMMARY_PREFIX)))!
    const sent = messagesOf(afterCompression)
    expect(sent[0].role).toBe('system')
    expect(sent.slice(1)).toEqual(asRequestMessages([...head, summaryRecord, ...tail, allBefore().find((m) => m.content === userText(lastTurn))!]))

    // The prompt was rebuilt: the memory saved mid-session is in it now, and stored.
    expect(promptAtStart).not.toContain('stg-7.internal')
    expect(session.systemPrompt).not.toBe(promptAtStart)
    expect(session.systemPrompt).toContain('The staging host is stg-7.internal')
    expect(sent[0].content).toBe(session.systemPrompt)
    expect(r.f.core.sessions.get(session.id)!.systemPrompt).toBe(session.systemPrompt)

    const [compressed] = recorded.ofType('compressed')
    expect(compressed.summarizedMessages).toBe(middle.length)
    expect(compressed.tokensBefore).toBeGreaterThan(THRESHOLD)
    expect(compressed.tokensAfter).toBeLessThan(compressed.tokensBefore)

    // Compacted messages stay searchable.
    const found = searchSessions(r.f.core.db, 'quokka')
    expect(found.sessions[0]?.sessionId).toBe(session.id)
    expect(middle.map((m) => m.id)).toContain(found.sessions[0].matchMessageId)

    for (const request of r.f.server.chatRequests()) expectToolPairs(messagesOf(request))
  })

  it('resumes a compressed session as head + summary + tail, and folds the first summary into the second', async () => {
    const r = await rig()
    const recorded = r.open()
    const { session } = recorded
    let turn = await turnsUntilCompressed(r, recorded, 1, 1)

    // A resumed session sends exactly what the live one would: no compacted message.
    const resumed = r.open(session.id).session
    expect(resumed.systemPrompt).toBe(session.systemPrompt)
    expect(resumed.modelMessages()).toEqual(session.modelMessages())
    await resumed.runTurn(userText(turn++)).done
    const resumedRequest = messagesOf(r.mainRequests().at(-1)!)
    const compactedIds = new Set(r.compressions[0].messages.map((m) => m.id))
    for (const record of r.compressions[0].messages) {
      if (record.content) expect(resumedRequest.some((m) => m.content === record.content)).toBe(false)
    }
    expect(resumedRequest.filter((m) => m.content?.startsWith(SUMMARY_PREFIX))).toHaveLength(1)
    expect(resumedRequest[1].content).toBe(userText(1))
    expect(resumedRequest[2].content).toBe(answerText(1))
    expect(resumedRequest[3].content).toBe(SUMMARY_PREFIX + r.f.core.sessions.messages(session.id).find((m) => m.role === 'summary')!.content)
    expect(compactedIds.size).toBeGreaterThan(0)

    // Keep going in the resumed session until it compresses again.
    const continued: Recorded = { ...recorded, session: resumed }
    turn = await turnsUntilCompressed(r, continued, turn, 2)
    const second = r.summaryRequests()[1]
    const transcript = messagesOf(second)[1].content!
    expect(transcript).toContain('(earlier summary)')
    expect(transcript).toContain('summary-marker-1')
    expect(r.compressions[1].messages[0].role).toBe('summary')

    const stored = r.f.core.sessions.messages(session.id)
    expect(stored.filter((m) => m.role === 'summary').map((m) => m.content)).toEqual([expect.stringContaining('summary-marker-2')])
    const all = r.f.core.sessions.messages(session.id, { includeCompacted: true })
    expect(all.find((m) => m.content?.includes('summary-marker-1'))?.compacted).toBe(true)

    const last = messagesOf(r.mainRequests().at(-1)!)
    expect(last.filter((m) => m.content?.startsWith(SUMMARY_PREFIX)).map((m) => m.content)).toEqual([expect.stringContaining('summary-marker-2')])
    expect(last[3].content).toContain('summary-marker-2')

    // After two compressions a resumed session still sees the same conversation, in the same order.
    const again = r.open(session.id).session
    expect(again.modelMessages()).toEqual(resumed.modelMessages())
    const roles = again.modelMessages().map((m) => m.role)
    expect(roles.slice(0, 4)).toEqual(['system', 'user', 'assistant', 'user'])
    for (const request of r.f.server.chatRequests()) expectToolPairs(messagesOf(request))
  })

  it('keeps the summary right after the first exchange when compressions follow each other closely', async () => {
    // A long first answer is kept verbatim in the head, so the context stays near the threshold and
    // the next compression comes after one turn, folding part of the previous tail.
    const r = await rig({
      main: (request) => {
        const last = messagesOf(request).at(-1)!
        const turn = Number(/^Question (\d+)/.exec(last.content ?? '')?.[1] ?? 0)
        return { text: turn === 1 ? `Answer 1: ${filler(1, 14_000)}` : answerText(turn) }
      }
    })
    const recorded = r.open()
    const { session } = recorded
    await turnsUntilCompressed(r, recorded, 1, 2)
    for (const request of r.mainRequests().filter((req) => messagesOf(req).some((m) => m.content?.startsWith(SUMMARY_PREFIX)))) {
      const sent = messagesOf(request)
      expect(sent.map((m) => m.role).slice(0, 4)).toEqual(['system', 'user', 'assistant', 'user'])
      expect(sent[3].content).toMatch(/^\[CONTEXT SUMMARY/)
      expect(sent.filter((m) => m.content?.startsWith(SUMMARY_PREFIX))).toHaveLength(1)
      // The tail follows in the order it was said.
      const questions = sent.slice(4).flatMap((m) => (m.role === 'user' ? [Number(/^Question (\d+)/.exec(m.content ?? '')?.[1])] : []))
      expect(questions).toEqual([...questions].sort((a, b) => a - b))
    }
    expect(r.open(session.id).session.modelMessages()).toEqual(session.modelMessages())
  })

  it('compresses a single very long turn of tool calls without splitting a call from its result', async () => {
    let reads = 0
    const r = await rig({
      main: () => {
        reads++
        if (reads <= 16) return { text: `Reading part ${reads}.`, toolCalls: [{ name: 'read_file', arguments: { path: `part-${reads}.txt` } }] }
        return { text: 'I read all sixteen parts: they describe the rivers.' }
      }
    })
    for (let i = 1; i <= 16; i++) writeFileSync(join(r.f.workspace, `part-${i}.txt`), `part ${i}\n${filler(i, 2400)}\n`)
    const recorded = r.open()
    const summary = await recorded.session.runTurn('Read part-1.txt to part-16.txt and tell me what they describe.').done

    expect(summary.reason).toBe('completed')
    expect(summary.answer).toBe('I read all sixteen parts: they describe the rivers.')
    expect(summary.toolCalls).toHaveLength(16)
    expect(r.compressions.length).toBeGreaterThanOrEqual(1)
    // Only the request is kept as the head; the summary follows it; the tail starts with a call.
    const [first] = r.compressions
    expect(first.messages[0].role).toBe('assistant')
    const afterCompression = r.mainRequests().find((request) => messagesOf(request).some((m) => m.content?.startsWith(SUMMARY_PREFIX)))!
    const sent = messagesOf(afterCompression)
    expect(sent[1]).toEqual({ role: 'user', content: 'Read part-1.txt to part-16.txt and tell me what they describe.' })
    expect(sent[2].content).toContain(SUMMARY_PREFIX)
    expect(sent[3].role).toBe('assistant')
    expect(sent[3].tool_calls).toHaveLength(1)
    for (const request of r.f.server.chatRequests()) expectToolPairs(messagesOf(request))
    // Every tool result is still stored, compacted or not.
    const results = r.f.core.sessions.messages(recorded.session.id, { includeCompacted: true }).filter((m) => m.role === 'tool')
    expect(results).toHaveLength(16)
    expect(results.filter((m) => m.compacted).length).toBeGreaterThan(0)
  })

  it('keeps the turn going when the summariser fails, and tries again only on the next turn', async () => {
    let failSummaries = true
    let step = 0
    // A window smaller than the tool list: every call wants a compression once there is a middle to summarise.
    const r = await rig(
      {
        summary: (n) => (failSummaries ? { fault: { type: 'http', status: 400 } } : { text: `## Goal\nsummary-marker-${n}` }),
        main: (request) => {
          const last = messagesOf(request).at(-1)!
          if (last.role === 'user' && last.content === 'Run two lookups.') return { toolCalls: [{ name: 'skills_list', arguments: {} }] }
          if (last.role === 'tool' && step++ === 0) return { toolCalls: [{ name: 'skills_list', arguments: {} }] }
          if (last.role === 'tool') return { text: 'Both lookups done.' }
          return { text: answerText(Number(/^Question (\d+)/.exec(last.content ?? '')?.[1] ?? 0)) }
        }
      },
      { context: { windowTokens: 4000, compressAt: 0.5 } }
    )
    const recorded = r.open()
    const { session } = recorded
    for (let turn = 1; turn <= 2; turn++) await session.runTurn(userText(turn)).done
    expect(r.summaryRequests()).toHaveLength(0)
    const summary = await session.runTurn('Run two lookups.').done

    expect(summary.reason).toBe('completed')
    expect(summary.answer).toBe('Both lookups done.')
    expect(summary.iterations).toBe(3)
    const errors = recorded.ofType('error')
    expect(errors).toHaveLength(1)
    expect(errors[0]).toMatchObject({ code: 'compression_failed', retryable: false })
    expect(errors[0].message).toMatch(/Could not condense the conversation/)
    expect(r.summaryRequests()).toHaveLength(1) // not retried on every step of the same turn
    expect(recorded.ofType('compressed')).toHaveLength(0)
    // Nothing was lost: nothing compacted, no summary, the full history went to the model.
    expect(r.f.core.sessions.messages(session.id, { includeCompacted: true }).some((m) => m.compacted || m.role === 'summary')).toBe(false)
    const lastRequest = messagesOf(r.mainRequests().at(-1)!)
    expect(lastRequest.filter((m) => m.role === 'user').map((m) => m.content)).toEqual([userText(1), userText(2), 'Run two lookups.'])

    // The next turn tries again, and this time the summariser works.
    failSummaries = false
    const next = await session.runTurn(userText(3)).done
    expect(next.reason).toBe('completed')
    expect(recorded.ofType('compressed')).toHaveLength(1)
    expect(r.f.core.sessions.messages(session.id).some((m) => m.role === 'summary')).toBe(true)
    for (const request of r.f.server.chatRequests()) expectToolPairs(messagesOf(request))
  })
})

describe('regenerating after a compression', () => {
  it('keeps the summary (it stands for older turns) and answers the same question again', async () => {
    const r = await rig()
    const { session } = r.open()
    let turn = 1
    while (r.compressions.length === 0 && turn < 20) {
      const summary = await session.runTurn(userText(turn)).done
      expect(summary.reason).toBe('completed')
      turn++
    }
    expect(r.compressions.length).toBe(1)
    const lastQuestion = userText(turn - 1)
    const before = session.modelMessages()
    expect(before.some((m) => typeof m.content === 'string' && m.content.startsWith(SUMMARY_PREFIX))).toBe(true)

    const again = await session.regenerate().done
    expect(again.reason).toBe('completed')
    const stored = r.f.core.sessions.messages(session.id)
    expect(stored.filter((m) => m.role === 'summary')).toHaveLength(1)
    expect(stored.filter((m) => m.role === 'user' && m.content === lastQuestion)).toHaveLength(1)
    // The model still sees the summary in place of the compacted turns, and the question once.
    const after = messagesOf(r.mainRequests().at(-1)!)
    expect(after.filter((m) => typeof m.content === 'string' && m.content.startsWith(SUMMARY_PREFIX))).toHaveLength(1)
    expect(after.filter((m) => m.role === 'user' && m.content === lastQuestion)).toHaveLength(1)
    // A resumed session agrees with the live one.
    const resumed = r.open(session.id)
    expect(resumed.session.modelMessages()).toEqual(session.modelMessages())
  })
})

/** A scripted session whose context fills in a few turns, for the compression tests. */
import { afterEach, expect } from 'vitest'
import type { CompressionEvent } from '../../electron/core/agent/agent-session'
import { SUMMARY_PREFIX } from '../../electron/core/agent/history'
import type { MessageRecord } from '../../electron/core/sessions'
import type { ConfigPatch } from '../../shared/config'
import { agentFixture, type AgentFixture, type Recorded } from './agent-fixture'
import type { RecordedChatRequest, ScriptedReply } from '../scripted-provider'

/**
 * The full tool set alone is ~3,600 tokens, so the window is 20,000 tokens (threshold 10,000) and the
 * messages are long: a compression then comes after a handful of turns, as it would in a real session.
 */
const WINDOW: ConfigPatch = { context: { windowTokens: 20_000, compressAt: 0.5 } }
export const THRESHOLD = 10_000

export type RequestMessage = {
  role: string
  content: string | null
  tool_calls?: Array<{ id: string; function: { name: string; arguments: string } }>
  tool_call_id?: string
}

/** The rig of the running test, closed after it. */
let fx: AgentFixture | undefined

afterEach(async () => {
  await fx?.close()
  fx = undefined
})

/** Deterministic filler prose, different for every seed, roughly `chars` long. */
export function filler(seed: number, chars: number): string {
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

export const userText = (turn: number) => `Question ${turn} about subject${turn}: ${filler(turn, 1200)}`
export const answerText = (turn: number) => `Answer ${turn} on subject${turn}: ${filler(turn + 100, 2000)}`

function isSummaryRequest(request: RecordedChatRequest): boolean {
  const first = request.body.messages[0]
  return first.role === 'system' && typeof first.content === 'string' && first.content.startsWith('You are condensing')
}

export interface Script {
  /** Decides the main model's replies; the summariser's are answered separately. */
  main: (request: RecordedChatRequest) => ScriptedReply | undefined
  summary: (count: number) => ScriptedReply
}

export interface CompressionRig {
  f: AgentFixture
  summaryRequests: () => RecordedChatRequest[]
  mainRequests: () => RecordedChatRequest[]
  compressions: CompressionEvent[]
  open(sessionId?: string): Recorded
}

export async function rig(script: Partial<Script> = {}, config: ConfigPatch = WINDOW): Promise<CompressionRig> {
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

export function messagesOf(request: RecordedChatRequest): RequestMessage[] {
  return request.body.messages as RequestMessage[]
}

/** Every tool call is answered right after its assistant message, and no tool result stands alone. */
export function expectToolPairs(messages: RequestMessage[]): void {
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
export function asRequestMessages(records: MessageRecord[]): RequestMessage[] {
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

export async function turnsUntilCompressed(r: CompressionRig, recorded: Recorded, from: number, count: number, maxTurns = 20): Promise<number> {
  let turn = from
  while (r.compressions.length < count) {
    if (turn - from > maxTurns) throw new Error(`no compression after ${maxTurns} turns`)
    const summary = await recorded.session.runTurn(userText(turn)).done
    expect(summary.reason).toBe('completed')
    turn++
  }
  return turn
}

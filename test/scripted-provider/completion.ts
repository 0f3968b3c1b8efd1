/**
 * Turns a scripted reply into OpenAI wire objects: the `chat.completion` JSON for non-streaming
 * requests and the ordered `chat.completion.chunk` list for streaming ones (role chunk, text pieces,
 * tool-call header + argument pieces per call, finish chunk, optional usage chunk).
 */
import { estimateTokens } from './usage'
import type { ScriptedReply, Usage } from './types'

export interface PlannedToolCall {
  id: string
  name: string
  /** The exact arguments string sent (invalid JSON under a `malformedToolArguments` fault). */
  arguments: string
  /** How the arguments string is streamed; joins to `arguments`. */
  pieces: string[]
}

/** A reply resolved to exactly what will be sent. */
export interface ReplyPlan {
  text: string
  textPieces: string[]
  toolCalls: PlannedToolCall[]
  finishReason: string
}

export interface CompletionMeta {
  id: string
  created: number
  model: string
}

const systemFingerprint = 'fp_scripted'

/** Splits text word by word, keeping whitespace, so the pieces join back to the text exactly. */
export function splitWords(text: string): string[] {
  return text.match(/\s*\S+|\s+$/g) ?? []
}

/** Splits text into at most `count` non-empty pieces of near-equal length (by code point). */
export function splitEvenly(text: string, count: number): string[] {
  const chars = Array.from(text)
  const pieces = Math.max(1, Math.min(count, chars.length))
  const size = Math.ceil(chars.length / pieces)
  const result: string[] = []
  for (let start = 0; start < chars.length; start += size) result.push(chars.slice(start, start + size).join(''))
  return result.length ? result : ['']
}

/** A string close to `valid` that `JSON.parse` rejects (a truncated object, like a cut-off model output). */
export function invalidJson(valid: string): string {
  const candidates = [valid.slice(0, -1), `${valid}}`, `{${valid}`, '{']
  return candidates.find((candidate) => candidate.length > 0 && !parsesAsJson(candidate)) ?? '{'
}

function parsesAsJson(text: string): boolean {
  try {
    JSON.parse(text)
    return true
  } catch {
    return false
  }
}

export function planReply(reply: ScriptedReply, nextToolCallId: () => string): ReplyPlan {
  const text = reply.text ?? reply.chunks?.join('') ?? ''
  const malformed = reply.fault?.type === 'malformedToolArguments'
  const toolCalls = (reply.toolCalls ?? []).map((call): PlannedToolCall => {
    const valid = typeof call.arguments === 'string' ? call.arguments : JSON.stringify(call.arguments)
    const args = malformed ? invalidJson(valid) : valid
    return { id: call.id ?? nextToolCallId(), name: call.name, arguments: args, pieces: splitEvenly(args, call.splitInto ?? 1) }
  })
  return {
    text,
    textPieces: reply.chunks ?? splitWords(text),
    toolCalls,
    finishReason: reply.finishReason ?? (toolCalls.length ? 'tool_calls' : 'stop')
  }
}

export function completionTokensOf(plan: ReplyPlan): number {
  const chars = plan.toolCalls.reduce((sum, call) => sum + call.name.length + call.arguments.length, plan.text.length)
  return estimateTokens(chars)
}

/** The non-streaming `chat.completion` object. */
export function buildCompletion(plan: ReplyPlan, meta: CompletionMeta, usage: Usage): Record<string, unknown> {
  const message: Record<string, unknown> = {
    role: 'assistant',
    // OpenAI sends null content for a tool-call-only answer.
    content: plan.text === '' && plan.toolCalls.length ? null : plan.text,
    refusal: null,
    annotations: []
  }
  if (plan.toolCalls.length) {
    message.tool_calls = plan.toolCalls.map((call) => ({
      id: call.id,
      type: 'function',
      function: { name: call.name, arguments: call.arguments }
    }))
  }
  return {
    id: meta.id,
    object: 'chat.completion',
    created: meta.created,
    model: meta.model,
    system_fingerprint: systemFingerprint,
    choices: [{ index: 0, message, logprobs: null, finish_reason: plan.finishReason }],
    usage
  }
}

/**
 * The streamed chunks in order. With `usage`, every chunk carries `usage: null` and a final
 * `choices: []` chunk carries the totals, as OpenAI does for `stream_options.include_usage`.
 */
export function buildChunks(plan: ReplyPlan, meta: CompletionMeta, usage?: Usage): Array<Record<string, unknown>> {
  const chunk = (delta: Record<string, unknown>, finishReason: string | null = null): Record<string, unknown> => ({
    id: meta.id,
    object: 'chat.completion.chunk',
    created: meta.created,
    model: meta.model,
    system_fingerprint: systemFingerprint,
    choices: [{ index: 0, delta, logprobs: null, finish_reason: finishReason }],
    ...(usage ? { usage: null } : {})
  })
  const chunks = [chunk({ role: 'assistant', content: plan.text === '' && plan.toolCalls.length ? null : '', refusal: null })]
  for (const piece of plan.textPieces) chunks.push(chunk({ content: piece }))
  plan.toolCalls.forEach((call, index) => {
    chunks.push(chunk({ tool_calls: [{ index, id: call.id, type: 'function', function: { name: call.name, arguments: '' } }] }))
    for (const piece of call.pieces) chunks.push(chunk({ tool_calls: [{ index, function: { arguments: piece } }] }))
  })
  chunks.push(chunk({}, plan.finishReason))
  if (usage) {
    chunks.push({
      id: meta.id,
      object: 'chat.completion.chunk',
      created: meta.created,
      model: meta.model,
      system_fingerprint: systemFingerprint,
      choices: [],
      usage
    })
  }
  return chunks
}

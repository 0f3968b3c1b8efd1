/**
 * Answers one `POST /v1/chat/completions`: validates the body like OpenAI does (400 / 404
 * `model_not_found`), picks the scripted reply, applies its delays and fault, then sends either the
 * `chat.completion` JSON or the SSE chunk stream with usage (estimated or overridden).
 */
import type { ServerResponse } from 'node:http'
import { buildChunks, buildCompletion, completionTokensOf, planReply, type ReplyPlan } from './completion'
import { openAiError, sendFaultBody, sendJson, sleep, untilAborted } from './http'
import type { PickedReply, ReplyScript } from './script'
import { startEventStream, writeEventStream } from './sse'
import type { RecordedChatRequest, RequestOutcome, ScriptedReply } from './types'
import { buildUsage, serialisePrompt, type PromptCache } from './usage'

export interface ChatContext {
  script: ReplyScript
  cache: PromptCache
  models?: string[]
  nextToolCallId: () => string
  nextCompletionId: () => string
  log: (line: string) => void
}

function reject(res: ServerResponse, record: RecordedChatRequest, status: number, body: unknown): RequestOutcome {
  record.status = status
  sendJson(res, status, body)
  return 'http-error'
}

/** Why the body cannot be a chat request, in OpenAI's words plus what to send instead; undefined when fine. */
function invalidBody(body: RecordedChatRequest['body']): string | undefined {
  if (typeof body.model !== 'string' || !body.model) return "Missing required parameter: 'model'. Send the model name as a string."
  if (!Array.isArray(body.messages) || body.messages.length === 0) {
    return "Missing required parameter: 'messages'. Send a non-empty array of chat messages."
  }
  return undefined
}

export function describeReply(reply: ScriptedReply, plan: ReplyPlan): string {
  const parts: string[] = []
  if (plan.text) parts.push(`text ${JSON.stringify(plan.text.length > 40 ? `${plan.text.slice(0, 40)}…` : plan.text)}`)
  if (plan.toolCalls.length) parts.push(`tool calls ${plan.toolCalls.map((call) => call.name).join(', ')}`)
  if (!parts.length) parts.push('empty')
  if (reply.fault) parts.push(`fault ${reply.fault.type}${reply.fault.type === 'http' ? ` ${reply.fault.status}` : ''}`)
  return parts.join(' + ')
}

export async function answerChat(record: RecordedChatRequest, res: ServerResponse, signal: AbortSignal, ctx: ChatContext): Promise<RequestOutcome> {
  const { body } = record
  const problem = invalidBody(body)
  if (problem) return reject(res, record, 400, openAiError(problem, 'invalid_request_error', null, problem.includes("'model'") ? 'model' : 'messages'))
  if (ctx.models && !ctx.models.includes(body.model)) {
    const message = `The model \`${body.model}\` does not exist or you do not have access to it. This scripted server serves: ${ctx.models.join(', ')}.`
    return reject(res, record, 404, openAiError(message, 'invalid_request_error', 'model_not_found'))
  }

  let picked: PickedReply | undefined
  try {
    picked = await ctx.script.pick(record)
  } catch (error) {
    const message = `(scripted) Could not produce a reply for request #${record.index}: ${(error as Error).message}`
    ctx.log(message)
    return reject(res, record, 500, openAiError(message, 'server_error', 'scripted_reply_invalid'))
  }
  if (!picked) {
    const message = `(scripted) Nothing is scripted for request #${record.index} (strict mode): enqueue another reply, or add a rule or fallback.`
    ctx.log(message)
    return reject(res, record, 500, openAiError(message, 'server_error', 'scripted_queue_empty'))
  }
  record.servedBy = picked.source
  const { reply } = picked
  const plan = planReply(reply, ctx.nextToolCallId)
  const stream = body.stream === true
  ctx.log(`#${record.index} chat model=${body.model}${stream ? ' stream' : ''} messages=${body.messages.length}` +
    `${body.tools ? ` tools=${body.tools.length}` : ''} → ${picked.source}: ${describeReply(reply, plan)}`)

  const fault = reply.fault
  const delay = (reply.delayMs ?? 0) + (fault?.type === 'slowFirstByte' ? fault.ms : 0)
  if (!(await sleep(delay, signal))) return 'client-disconnected'
  if (fault?.type === 'hang') {
    await untilAborted(signal)
    return 'client-disconnected'
  }
  if (fault?.type === 'http') {
    record.status = fault.status
    sendFaultBody(res, fault.status, fault.body, fault.headers)
    return fault.status >= 400 ? 'http-error' : 'completed'
  }

  // Only prompts the provider actually processed warm its prefix cache (a 429 or a hang does not).
  const usage = buildUsage(ctx.cache.measure(serialisePrompt(body)), completionTokensOf(plan), reply.usage)
  const meta = { id: ctx.nextCompletionId(), created: Math.floor(Date.now() / 1000), model: body.model }
  const cutAfter = fault?.type === 'cut' ? fault.afterChunks : undefined
  record.status = 200

  if (stream) {
    const includeUsage = body.stream_options?.include_usage === true
    startEventStream(res, { 'x-request-id': meta.id })
    const chunks = buildChunks(plan, meta, includeUsage ? usage : undefined)
    return writeEventStream(res, chunks, { chunkDelayMs: reply.chunkDelayMs, cutAfter, signal })
  }

  const completion = buildCompletion(plan, meta, usage)
  if (cutAfter !== undefined) {
    // A non-streaming cut: promise the whole body, deliver half, drop the connection.
    const text = JSON.stringify(completion)
    res.writeHead(200, { 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(text)), 'x-request-id': meta.id })
    await new Promise<void>((resolve) => res.write(text.slice(0, Math.floor(text.length / 2)), () => resolve()))
    res.destroy()
    return 'cut'
  }
  sendJson(res, 200, completion, { 'x-request-id': meta.id })
  return 'completed'
}

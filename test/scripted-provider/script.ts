/**
 * The script: which reply answers each chat request. Order: the reply queue, then the `respond`
 * function, then rules on the last user message, then the fallback reply, then a clearly fake echo
 * (or nothing in strict mode). Replies and script files are validated up front with zod so a typo
 * fails loudly at enqueue/load time instead of producing a puzzling stream later.
 */
import { readFileSync } from 'node:fs'
import { z } from 'zod'
import type {
  ChatRequestBody,
  RecordedChatRequest,
  ReplySource,
  RespondFunction,
  ScriptedReply,
  ScriptFile,
  ScriptRule
} from './types'

const toolCallSchema = z.strictObject({
  id: z.string().min(1).optional(),
  name: z.string().min(1),
  arguments: z.union([z.string(), z.array(z.unknown()), z.looseObject({})]),
  splitInto: z.number().int().min(1).optional()
})

const faultSchema = z.discriminatedUnion('type', [
  z.strictObject({
    type: z.literal('http'),
    status: z.number().int().min(200).max(599),
    body: z.unknown().optional(),
    headers: z.record(z.string(), z.string()).optional()
  }),
  z.strictObject({ type: z.literal('cut'), afterChunks: z.number().int().min(0) }),
  z.strictObject({ type: z.literal('slowFirstByte'), ms: z.number().int().min(0) }),
  z.strictObject({ type: z.literal('hang') }),
  z.strictObject({ type: z.literal('malformedToolArguments') })
])

const tokenCount = z.number().int().min(0).optional()

export const scriptedReplySchema = z
  .strictObject({
    text: z.string().optional(),
    chunks: z.array(z.string()).optional(),
    toolCalls: z.array(toolCallSchema).optional(),
    finishReason: z.string().min(1).optional(),
    usage: z
      .strictObject({
        prompt_tokens: tokenCount,
        completion_tokens: tokenCount,
        total_tokens: tokenCount,
        cached_tokens: tokenCount
      })
      .optional(),
    fault: faultSchema.optional(),
    delayMs: z.number().int().min(0).optional(),
    chunkDelayMs: z.number().int().min(0).optional()
  })
  .superRefine((reply, ctx) => {
    if (reply.chunks && reply.text !== undefined && reply.chunks.join('') !== reply.text) {
      ctx.addIssue({ code: 'custom', path: ['chunks'], message: 'chunks must join to exactly `text` (or omit `text`)' })
    }
    if (reply.fault?.type === 'malformedToolArguments' && !reply.toolCalls?.length) {
      ctx.addIssue({ code: 'custom', path: ['fault'], message: 'malformedToolArguments needs at least one entry in `toolCalls`' })
    }
  })

const ruleSchema = z
  .strictObject({
    contains: z.string().min(1).optional(),
    regex: z.string().min(1).optional(),
    flags: z.string().optional(),
    times: z.number().int().min(1).optional(),
    after: z.enum(['user', 'tool', 'any']).optional(),
    reply: scriptedReplySchema
  })
  .superRefine((rule, ctx) => {
    if ((rule.contains === undefined) === (rule.regex === undefined)) {
      ctx.addIssue({ code: 'custom', path: [], message: 'a rule needs exactly one of `contains` or `regex`' })
    }
    if (rule.regex !== undefined) {
      try {
        new RegExp(rule.regex, rule.flags)
      } catch (error) {
        ctx.addIssue({ code: 'custom', path: ['regex'], message: `not a valid regular expression: ${(error as Error).message}` })
      }
    }
  })

const scriptFileSchema = z.strictObject({
  $schema: z.string().optional(),
  replies: z.array(scriptedReplySchema).optional(),
  rules: z.array(ruleSchema).optional(),
  fallback: scriptedReplySchema.optional(),
  models: z.array(z.string().min(1)).min(1).optional(),
  apiKey: z.string().min(1).optional()
})

export class ScriptError extends Error {
  constructor(message: string) {
    super(message)
    this.name = 'ScriptError'
  }
}

function check<T>(schema: z.ZodType<T>, value: unknown, what: string): T {
  const result = schema.safeParse(value)
  if (!result.success) throw new ScriptError(`${what} is invalid:\n${z.prettifyError(result.error)}`)
  return result.data
}

/** Validates one reply; `what` names it in the error (e.g. "reply #2"). */
export function validateReply(reply: unknown, what = 'scripted reply'): ScriptedReply {
  return check(scriptedReplySchema, reply, what)
}

export function validateRules(rules: unknown): ScriptRule[] {
  return check(z.array(ruleSchema), rules, 'rules')
}

/** Validates a parsed script file; `source` names it in the error. */
export function parseScript(json: unknown, source = 'script'): ScriptFile {
  const { $schema: _schema, ...script } = check(scriptFileSchema, json, source)
  return script
}

export function loadScriptFile(path: string): ScriptFile {
  let text: string
  try {
    text = readFileSync(path, 'utf8')
  } catch (error) {
    throw new ScriptError(`Cannot read script file ${path}: ${(error as Error).message}. Check the --script path.`)
  }
  let json: unknown
  try {
    json = JSON.parse(text)
  } catch (error) {
    throw new ScriptError(`Script file ${path} is not valid JSON: ${(error as Error).message}`)
  }
  return parseScript(json, `Script file ${path}`)
}

/** Text of the last `user` message (text parts joined by newlines); '' when there is none. */
export function lastUserText(body: Pick<ChatRequestBody, 'messages'>): string {
  const messages = Array.isArray(body.messages) ? body.messages : []
  for (let i = messages.length - 1; i >= 0; i--) {
    const message = messages[i]
    if (message?.role !== 'user') continue
    const content: unknown = message.content
    if (typeof content === 'string') return content
    if (Array.isArray(content)) {
      return content
        .map((part: unknown) => (part && typeof part === 'object' && 'text' in part ? String(part.text) : ''))
        .filter(Boolean)
        .join('\n')
    }
    return ''
  }
  return ''
}

/** `tool` when the conversation ends with a tool result (the turn continues), else `user`. */
export function conversationEndsWith(body: Pick<ChatRequestBody, 'messages'>): 'user' | 'tool' {
  const messages = Array.isArray(body.messages) ? body.messages : []
  return messages.at(-1)?.role === 'tool' ? 'tool' : 'user'
}

const echoLimit = 500

function clip(text: string): string {
  return text.length > echoLimit ? `${text.slice(0, echoLimit)}…` : text
}

/**
 * The reply when nothing is scripted: obviously fake, so a manual run never hangs or misleads.
 * After a tool result it shows that result and ends the turn instead of calling tools again.
 */
export function echoReply(body: Pick<ChatRequestBody, 'messages'>): ScriptedReply {
  if (conversationEndsWith(body) === 'tool') {
    const content: unknown = body.messages.at(-1)?.content
    const result = typeof content === 'string' ? content : JSON.stringify(content ?? '')
    return { text: `(scripted) The tool returned: ${clip(result)}` }
  }
  const said = lastUserText(body)
  if (!said) return { text: '(scripted) Nothing is scripted for this request.' }
  return { text: `(scripted) You said: ${clip(said)}` }
}

interface CompiledRule {
  after: 'user' | 'tool' | 'any'
  matches: (text: string) => boolean
  timesLeft: number
  reply: ScriptedReply
}

function compileRule(rule: ScriptRule): CompiledRule {
  const after = rule.after ?? 'user'
  const timesLeft = rule.times ?? Number.POSITIVE_INFINITY
  if (rule.regex !== undefined) {
    const pattern = new RegExp(rule.regex, rule.flags)
    // A global/sticky regex keeps lastIndex between calls; reset so every request is matched afresh.
    const matches = (text: string): boolean => {
      pattern.lastIndex = 0
      return pattern.test(text)
    }
    return { after, matches, timesLeft, reply: rule.reply }
  }
  const needle = (rule.contains ?? '').toLowerCase()
  return { after, matches: (text) => text.toLowerCase().includes(needle), timesLeft, reply: rule.reply }
}

export interface PickedReply {
  reply: ScriptedReply
  source: ReplySource
}

export interface ReplyScriptOptions {
  replies?: ScriptedReply[]
  respond?: RespondFunction
  rules?: ScriptRule[]
  fallback?: ScriptedReply
  strict?: boolean
}

/** Holds the queue and the other reply sources, and picks the reply for each chat request. */
export class ReplyScript {
  private readonly queue: ScriptedReply[] = []
  private readonly rules: CompiledRule[]
  private readonly respond?: RespondFunction
  private readonly fallback?: ScriptedReply
  private readonly strict: boolean

  constructor(options: ReplyScriptOptions = {}) {
    this.enqueue(...(options.replies ?? []))
    this.rules = validateRules(options.rules ?? []).map(compileRule)
    this.respond = options.respond
    this.fallback = options.fallback === undefined ? undefined : validateReply(options.fallback, 'fallback reply')
    this.strict = options.strict ?? false
  }

  enqueue(...replies: ScriptedReply[]): void {
    const checked = replies.map((reply, i) => validateReply(reply, `reply #${this.queue.length + i + 1} in the queue`))
    this.queue.push(...checked)
  }

  remaining(): number {
    return this.queue.length
  }

  /** The reply for `request`, or `undefined` in strict mode when nothing is scripted. */
  async pick(request: RecordedChatRequest): Promise<PickedReply | undefined> {
    const queued = this.queue.shift()
    if (queued) return { reply: queued, source: 'queue' }
    if (this.respond) {
      const produced = await this.respond(request)
      if (produced !== undefined) return { reply: validateReply(produced, 'reply from respond()'), source: 'respond' }
    }
    const text = lastUserText(request.body)
    const endsWith = conversationEndsWith(request.body)
    const rule = this.rules.find(
      (candidate) => candidate.timesLeft > 0 && (candidate.after === 'any' || candidate.after === endsWith) && candidate.matches(text)
    )
    if (rule) {
      rule.timesLeft--
      return { reply: rule.reply, source: 'rule' }
    }
    if (this.fallback) return { reply: this.fallback, source: 'fallback' }
    if (this.strict) return undefined
    return { reply: echoReply(request.body), source: 'echo' }
  }
}

import type { AgentEvent, TurnUsage } from '../../../shared/agent-events'
import type { MessageRecord, NewMessage, SessionStore } from '../sessions'
import { cutMiddle } from '../text/cut'
import { runTool } from '../tools/run-tool'
import { recordToolOutput, type ToolContext, type ToolDef } from '../tools/types'
import type { ModelToolCall } from '../provider/provider'

/** Longest tool result the model gets back; the rest is cut with a note (the full text is not kept either). */
export const MAX_TOOL_RESULT_CHARS = 50_000

export interface ToolCallOutcome {
  call: ModelToolCall
  ok: boolean
  content: string
  record: MessageRecord
  /** Tokens the tool spent on model calls of its own (session_search's summaries); null when none were reported. */
  usage: TurnUsage | null
}

export interface ExecuteOptions {
  sessionId: string
  turnId: string
  tools: Map<string, ToolDef>
  sessions: Pick<SessionStore, 'append'>
  context: (call: ModelToolCall) => ToolContext
  emit: (event: AgentEvent) => void
  signal?: AbortSignal
}

/**
 * Runs the tool calls of one model response concurrently (they are independent by construction:
 * the model issued them together). Each result is saved the moment it is ready, so a crash loses
 * nothing already done. Unknown tools, bad arguments and exceptions become readable results.
 */
export async function executeToolCalls(calls: ModelToolCall[], options: ExecuteOptions): Promise<ToolCallOutcome[]> {
  return Promise.all(
    calls.map(async (call) => {
      const started = Date.now()
      options.emit({ type: 'tool_call_started', sessionId: options.sessionId, turnId: options.turnId, callId: call.id, name: call.name, arguments: call.arguments })
      let result: unknown
      const spent = new ToolSpend()
      const context: ToolContext = { ...options.context(call), recordUsage: (usage, model) => spent.add(usage, model) }
      if (options.signal?.aborted) {
        result = { success: false, error: 'Cancelled by the user before this tool ran.' }
      } else {
        const tool = options.tools.get(call.name)
        result = tool
          ? await runTool(tool, call.arguments, context)
          : { success: false, error: `There is no tool named "${call.name}". Available tools: ${[...options.tools.keys()].join(', ')}.` }
      }
      const ok = succeeded(result)
      const content = capResult(typeof result === 'string' ? result : JSON.stringify(result))
      // What the model now knows: a later fetch_url this turn whose address carries it must ask.
      recordToolOutput(context.turn, content, argumentStrings(call.arguments))
      // The tokens are kept with the result, under the model that spent them, so the session's totals count them.
      const record = options.sessions.append(options.sessionId, { role: 'tool', content, toolCallId: call.id, toolName: call.name, ...spent.messageFields() })
      options.emit({
        type: 'tool_call_finished',
        sessionId: options.sessionId,
        turnId: options.turnId,
        callId: call.id,
        name: call.name,
        ok,
        result: content,
        durationMs: Date.now() - started,
        messageId: record.id
      })
      return { call, ok, content, record, usage: spent.total() }
    })
  )
}

/** What one tool call spent on model calls, by model. */
class ToolSpend {
  private readonly byModel = new Map<string, TurnUsage>()

  add(usage: TurnUsage, model: string): void {
    const sum = this.byModel.get(model) ?? { promptTokens: 0, completionTokens: 0, cachedTokens: 0 }
    // Some servers report fractions or junk; the store takes whole counts only, and a tool's result must never fail to save.
    const whole = (n: number): number => (Number.isFinite(n) && n > 0 ? Math.round(n) : 0)
    this.byModel.set(model, sumUsage(sum, { promptTokens: whole(usage.promptTokens), completionTokens: whole(usage.completionTokens), cachedTokens: whole(usage.cachedTokens) }))
  }

  total(): TurnUsage | null {
    if (!this.byModel.size) return null
    return [...this.byModel.values()].reduce(sumUsage, { promptTokens: 0, completionTokens: 0, cachedTokens: 0 })
  }

  /** The tool message's token columns and the model they belong to (`meta.model`, as on answers; `usageByModel` when several). */
  messageFields(): Pick<NewMessage, 'promptTokens' | 'completionTokens' | 'cachedTokens' | 'meta'> {
    const total = this.total()
    if (!total) return {}
    const models = [...this.byModel.keys()]
    const meta = models.length === 1 ? { model: models[0] } : { usageByModel: Object.fromEntries(this.byModel) }
    return { ...total, meta }
  }
}

function sumUsage(a: TurnUsage, b: TurnUsage): TurnUsage {
  return { promptTokens: a.promptTokens + b.promptTokens, completionTokens: a.completionTokens + b.completionTokens, cachedTokens: a.cachedTokens + b.cachedTokens }
}

/** Every string in a call's arguments (JSON text or an object), for telling an echo from data. */
function argumentStrings(raw: unknown): string[] {
  let value = raw
  if (typeof raw === 'string') {
    try {
      value = JSON.parse(raw)
    } catch {
      return [raw]
    }
  }
  const found: string[] = []
  const visit = (node: unknown): void => {
    if (typeof node === 'string') found.push(node)
    else if (Array.isArray(node)) node.forEach(visit)
    else if (node && typeof node === 'object') Object.values(node).forEach(visit)
  }
  visit(value)
  return found
}

/** A refused tool, and a command that ran but failed (non-zero exit, timeout), both count as errors. */
function succeeded(result: unknown): boolean {
  if (typeof result !== 'object' || result === null) return true
  const r = result as { success?: unknown; exit_code?: unknown; timed_out?: unknown }
  if (r.success === false || r.timed_out === true) return false
  return !(typeof r.exit_code === 'number' && r.exit_code !== 0)
}

function capResult(text: string): string {
  // Mostly head: a long result's start (the file, the listing) is what the model asked for.
  return cutMiddle(text, MAX_TOOL_RESULT_CHARS, { headShare: 0.95, reason: 'the result was too long' })
}

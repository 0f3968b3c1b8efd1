import { randomUUID } from 'node:crypto'
import type { ChatCompletionMessageParam, ChatCompletionTool } from 'openai/resources/chat/completions'
import { ellipsize } from '../text/cut'
import type { AgentEvent, ApprovalDecision, TurnEndReason, TurnUsage } from '../../../shared/agent-events'
import type { CairnCore } from '../cairn'
import type { MessageRecord, SessionRecord } from '../sessions'
import { toolParametersSchema } from '../tools/run-tool'
import { newTurnState, type ToolDef, type TurnState } from '../tools/types'
import { ApprovalBroker } from './approvals'
import { planCompression, summarizeMiddle } from './compression'
import { EventBus } from '../events/event-bus'
import { orderForModel, summaryCoversThrough, userWords } from '../sessions/stored-messages'
import { toChatMessages } from './history'
import { composeSystemPrompt, indexSkills } from './prompt-context'
import { ProviderError } from '../provider/provider-errors'
import type { ChatProvider, ModelToolCall } from '../provider/provider'
import { formatSkillHint, relevantSkills } from './skill-hints'
import { estimatePromptTokens } from '../provider/tokens'
import { executeToolCalls, type ToolCallOutcome } from './tool-executor'

/** What a finished turn did, for the learning loop's triggers. */
export interface TurnSummary {
  sessionId: string
  turnId: string
  reason: TurnEndReason
  userText: string
  answer: string
  iterations: number
  toolCalls: Array<{ name: string; ok: boolean; arguments: string }>
  usage: TurnUsage
}

export interface CompressionEvent {
  sessionId: string
  /** The messages about to be summarised away (a review reads them first so nothing is lost). */
  messages: MessageRecord[]
}

export interface AgentHooks {
  onTurnFinished?(summary: TurnSummary): void
  beforeCompression?(event: CompressionEvent): void | Promise<void>
}

export interface AgentSessionOptions {
  core: CairnCore
  /** The provider for the next model call: resolved per turn, so a changed key, model or URL applies at once. */
  provider: ChatProvider | (() => ChatProvider)
  tools: ToolDef[]
  workspace: string
  /** Resume this session instead of starting a new one. */
  sessionId?: string
  source?: string
  autoApprove?: boolean
  hooks?: AgentHooks
}

/**
 * One conversation. The system prompt is built once when the session starts (or read back when it
 * resumes) and sent byte-for-byte on every call; only a context compression rebuilds it.
 */
export class AgentSession {
  readonly events = new EventBus<AgentEvent>()
  readonly approvals: ApprovalBroker
  private readonly tools: Map<string, ToolDef>
  private readonly toolSchemas: ChatCompletionTool[]
  private history: MessageRecord[]
  private running: AbortController | null = null
  private turnId = ''
  /** Turn whose compression failed: not retried on its later steps (a failing summariser would cost a call each step). */
  private compressionFailedTurn = ''

  private constructor(private readonly options: AgentSessionOptions, private session: SessionRecord) {
    this.tools = new Map(options.tools.map((tool) => [tool.name, tool]))
    this.toolSchemas = options.tools.map((tool) => ({
      type: 'function' as const,
      function: { name: tool.name, description: tool.description, parameters: toolParametersSchema(tool) }
    }))
    this.history = orderForModel(options.core.sessions.messages(session.id))
    this.approvals = new ApprovalBroker({
      autoApprove: options.autoApprove,
      commandPrefixes: () => options.core.config.get().agent.allowedCommandPrefixes,
      savePrefix: async (prefix) => {
        const current = options.core.config.get().agent.allowedCommandPrefixes
        if (!current.includes(prefix)) await options.core.config.update({ agent: { allowedCommandPrefixes: [...current, prefix] } })
      },
      onRequest: (pending) =>
        this.emit({
          type: 'approval_needed',
          requestId: pending.requestId,
          callId: pending.callId ?? '',
          kind: pending.request.kind,
          tool: pending.request.tool,
          summary: pending.request.summary,
          command: pending.request.command,
          cwd: pending.request.cwd,
          path: pending.request.path,
          preview: pending.request.preview,
          prefix: pending.prefix
        }),
      onResolved: (requestId, allowed, remembered) => this.emit({ type: 'approval_resolved', requestId, allowed, remembered })
    })
  }

  static open(options: AgentSessionOptions): AgentSession {
    const { core } = options
    const toolNames = new Set(options.tools.map((t) => t.name))
    if (options.sessionId) {
      const existing = core.sessions.get(options.sessionId)
      if (!existing) throw new Error(`There is no session ${options.sessionId}. List them with: cairn sessions`)
      const session = existing.systemPrompt
        ? existing
        : core.sessions.update(existing.id, { systemPrompt: composeSystemPrompt(core, toolNames, options.workspace) })
      return new AgentSession(options, session)
    }
    const session = core.sessions.create({
      source: options.source ?? 'cli',
      model: resolveProvider(options.provider).settings.model,
      systemPrompt: composeSystemPrompt(core, toolNames, options.workspace)
    })
    return new AgentSession(options, session)
  }

  get id(): string {
    return this.session.id
  }

  get systemPrompt(): string {
    return this.session.systemPrompt ?? ''
  }

  get isRunning(): boolean {
    return this.running !== null
  }

  /** Id of the running (or last) turn; set synchronously when runTurn starts. */
  get currentTurnId(): string {
    return this.turnId
  }

  /** The user's words of the last turn (without the skill hint Cairn added), or null. */
  lastUserText(): string | null {
    const last = [...this.history].reverse().find((r) => r.role === 'user')
    return last ? userWords(last) : null
  }

  /** Answers the last user message again: drops that turn (its answer and tool calls) and runs it anew. */
  async regenerate(options: { signal?: AbortSignal } = {}): Promise<TurnSummary> {
    if (this.running) throw new Error('A turn is already running in this session.')
    const index = this.history.map((r) => r.role).lastIndexOf('user')
    if (index < 0) throw new Error('There is no message to answer again.')
    const text = this.lastUserText() ?? ''
    this.options.core.sessions.truncateFrom(this.id, this.history[index].id)
    this.history = this.history.slice(0, index)
    return this.runTurn(text, options)
  }

  /** Stops the running turn (streaming, tools and pending approvals). */
  cancel(): void {
    this.running?.abort()
    this.approvals.denyAll()
  }

  respondToApproval(requestId: string, decision: ApprovalDecision): Promise<boolean> {
    return this.approvals.respond(requestId, decision)
  }

  /** The messages the model would see next, for tests and diagnostics. */
  modelMessages(): ChatCompletionMessageParam[] {
    return [{ role: 'system', content: this.systemPrompt }, ...toChatMessages(this.history)]
  }

  /** Runs one user turn to the end. Never throws for provider or tool failures: they end the turn with an event. */
  async runTurn(text: string, options: { signal?: AbortSignal } = {}): Promise<TurnSummary> {
    if (this.running) throw new Error('A turn is already running in this session.')
    const controller = new AbortController()
    const onOuterAbort = () => this.cancel()
    options.signal?.addEventListener('abort', onOuterAbort, { once: true })
    this.running = controller
    const signal = controller.signal
    const turnId = randomUUID()
    this.turnId = turnId
    const { core } = this.options
    const config = core.config.get()
    const usage: TurnUsage = { promptTokens: 0, completionTokens: 0, cachedTokens: 0 }
    const calls: TurnSummary['toolCalls'] = []
    const turn: TurnState = newTurnState()
    let answer = ''
    let streamed = '' // text of the model call in progress, kept if the turn is cancelled mid-stream
    let iterations = 0
    let reason: TurnEndReason = 'completed'

    const provider = resolveProvider(this.options.provider)
    const hint = formatSkillHint(relevantSkills(text, indexSkills(core)))
    const userRecord = core.sessions.append(this.id, { role: 'user', content: text + hint, meta: hint ? { hint } : undefined })
    this.history.push(userRecord)
    if (!this.session.title) this.session = core.sessions.update(this.id, { title: titleFrom(text) })
    this.emit({ type: 'turn_started', userMessageId: userRecord.id })

    try {
      for (;;) {
        if (iterations >= config.agent.maxIterations) {
          reason = 'max_iterations'
          answer = `I stopped after ${iterations} steps without finishing (the limit is agent.maxIterations = ${config.agent.maxIterations}). Tell me to continue if you want me to go on.`
          this.emit({ type: 'text_delta', text: answer })
          const record = core.sessions.append(this.id, { role: 'assistant', content: answer, finishReason: 'max_iterations' })
          this.history.push(record)
          break
        }
        iterations++
        await this.compressIfNeeded(signal)
        streamed = ''
        const result = await provider.chat({
          messages: this.modelMessages(),
          tools: this.toolSchemas,
          signal,
          onTextDelta: (delta) => {
            streamed += delta
            this.emit({ type: 'text_delta', text: delta })
          },
          onRetry: (notice) => {
            if (notice.discardPartial) streamed = ''
            this.emit({ type: 'retry', ...notice })
          }
        })
        if (result.usage) {
          usage.promptTokens += result.usage.promptTokens
          usage.completionTokens += result.usage.completionTokens
          usage.cachedTokens += result.usage.cachedTokens
          this.emit({ type: 'usage', usage: { ...result.usage } })
        }
        const assistant = core.sessions.append(this.id, {
          role: 'assistant',
          content: result.content,
          toolCalls: result.toolCalls.length ? result.toolCalls : null,
          finishReason: result.finishReason,
          promptTokens: result.usage?.promptTokens,
          completionTokens: result.usage?.completionTokens,
          cachedTokens: result.usage?.cachedTokens
        })
        streamed = ''
        this.history.push(assistant)
        this.emit({ type: 'assistant_message', messageId: assistant.id, content: result.content, toolCallCount: result.toolCalls.length })
        if (result.content) answer = result.content
        if (!result.toolCalls.length) break

        const outcomes = await this.runTools(result.toolCalls, turn, signal)
        for (const outcome of outcomes) {
          calls.push({ name: outcome.call.name, ok: outcome.ok, arguments: outcome.call.arguments })
          this.history.push(outcome.record)
        }
        if (signal.aborted) {
          reason = 'cancelled'
          break
        }
      }
    } catch (error) {
      if (signal.aborted || (error instanceof ProviderError && error.code === 'cancelled')) {
        reason = 'cancelled'
        if (streamed) {
          // Keep what the user already saw; the next turn's history stays valid (no tool calls).
          this.history.push(core.sessions.append(this.id, { role: 'assistant', content: streamed, finishReason: 'cancelled' }))
          answer = streamed
        }
      } else {
        reason = 'failed'
        const providerError = error instanceof ProviderError ? error : null
        this.emit({
          type: 'error',
          code: providerError?.code ?? 'internal',
          message: providerError?.message ?? `Something went wrong: ${(error as Error).message}`,
          retryable: providerError?.retryable ?? false
        })
      }
    } finally {
      options.signal?.removeEventListener('abort', onOuterAbort)
      this.running = null
    }
    const summary: TurnSummary = { sessionId: this.id, turnId, reason, userText: text, answer, iterations, toolCalls: calls, usage }
    this.emit({ type: 'turn_finished', reason, text: answer, usage, toolCalls: calls.length })
    try {
      this.options.hooks?.onTurnFinished?.(summary)
    } catch (error) {
      console.error('cairn: turn hook failed:', error)
    }
    return summary
  }

  private runTools(calls: ModelToolCall[], turn: TurnState, signal: AbortSignal): Promise<ToolCallOutcome[]> {
    return executeToolCalls(calls, {
      sessionId: this.id,
      turnId: this.turnId,
      tools: this.tools,
      sessions: this.options.core.sessions,
      emit: (event) => this.events.emit(event),
      signal,
      context: (call) => ({
        write: { source: 'agent', sessionId: this.id },
        turn,
        signal,
        workspace: this.options.workspace,
        approve: (request) => this.approvals.request(request, signal, call.id)
      })
    })
  }

  /** Summarises the middle of the conversation when the next call would pass `context.compressAt` of the window. */
  private async compressIfNeeded(signal: AbortSignal): Promise<void> {
    const { core } = this.options
    const { compressAt, windowTokens } = core.config.get().context
    const threshold = Math.floor(compressAt * windowTokens)
    const tokensBefore = estimatePromptTokens(this.modelMessages(), this.toolSchemas)
    if (tokensBefore <= threshold || this.compressionFailedTurn === this.currentTurnId) return
    const plan = planCompression(this.history, Math.floor(threshold * 0.25))
    if (!plan) return
    try {
      await this.options.hooks?.beforeCompression?.({ sessionId: this.id, messages: plan.middle })
    } catch (error) {
      console.error('cairn: pre-compression hook failed:', error)
    }
    let summaryText: string
    try {
      summaryText = await summarizeMiddle(resolveProvider(this.options.provider), plan.middle, signal)
    } catch (error) {
      if (signal.aborted) throw error
      this.compressionFailedTurn = this.currentTurnId
      this.emit({ type: 'error', code: 'compression_failed', message: `Could not condense the conversation: ${(error as Error).message}`, retryable: false })
      return
    }
    // An earlier summary in the middle has a newer id than the tail it preceded: use what it covered.
    const coversThrough = Math.max(...plan.middle.map((r) => (r.role === 'summary' ? summaryCoversThrough(r) : r.id)))
    core.sessions.markCompacted(this.id, plan.middle.map((r) => r.id))
    const summary = core.sessions.append(this.id, { role: 'summary', content: summaryText, meta: { coversThrough } })
    this.history = [...plan.head, summary, ...plan.tail]
    const toolNames = new Set(this.tools.keys())
    this.session = core.sessions.update(this.id, { systemPrompt: composeSystemPrompt(core, toolNames, this.options.workspace) })
    this.emit({
      type: 'compressed',
      summarizedMessages: plan.middle.length,
      tokensBefore,
      tokensAfter: estimatePromptTokens(this.modelMessages(), this.toolSchemas)
    })
  }

  private emit(event: DistributiveOmit<AgentEvent, 'sessionId' | 'turnId'>): void {
    this.events.emit({ ...event, sessionId: this.id, turnId: this.turnId } as AgentEvent)
  }
}

type DistributiveOmit<T, K extends PropertyKey> = T extends unknown ? Omit<T, K> : never

function resolveProvider(provider: ChatProvider | (() => ChatProvider)): ChatProvider {
  return typeof provider === 'function' ? provider() : provider
}

function titleFrom(text: string): string {
  return ellipsize(text, 60)
}

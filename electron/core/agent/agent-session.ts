import type { ChatCompletionMessageParam, ChatCompletionTool } from 'openai/resources/chat/completions'
import type { AgentEvent, ApprovalDecision } from '../../../shared/agent-events'
import { KeyedError } from '../../../shared/keyed-error'
import { EventBus } from '../events/event-bus'
import { modelStep, type ModelStep } from '../provider/model-step'
import { resolveProvider, type ChatProvider, type ModelToolCall } from '../provider/provider'
import { attachmentsToResend, userMessageMeta, type SavedAttachment } from '../attachments'
import { estimatePromptTokens } from '../provider/tokens'
import type { MessageRecord, SessionRecord } from '../sessions'
import { VersionError } from '../sessions/message-branches'
import { orderForModel, summaryCoversThrough, userWords } from '../sessions/stored-messages'
import { clearTurnFailure, recordTurnFailure } from '../sessions/turn-failure'
import { toolSchema } from '../tools/run-tool'
import type { ToolDef } from '../tools/types'
import type { AgentSessionOptions } from './agent-session-options'
import { chatApprovals, type ApprovalBroker } from './approvals'
import { planCompression, summarizeMiddle } from './compression'
import { toChatMessages } from './history'
import { addInstructionsRead, LiveEvidence } from '../staging/conversation-evidence'
import { readProjectInstructions, type ProjectInstructionFile } from '../workspace/project-instructions'
import { composeSystemPrompt, indexSkills, mcpPromptInfo } from './prompt-context'
import { executeToolCalls } from './tool-executor'
import { syncFinishedTurn, turnNotes, type TurnNotes } from './turn-notes'
import { TurnProgress, isCancellation, stepLimitAnswer, titleFrom, turnFailure, type TurnEvent, type TurnHandle, type TurnSummary } from './turn'
export type { TurnHandle, TurnSummary } from './turn'

export type { AgentHooks, AgentSessionOptions, CompressionEvent } from './agent-session-options'

/** What a turn settles once, when it starts. */
interface TurnSetup {
  provider: ChatProvider
  maxIterations: number
  signal: AbortSignal
}

/**
 * One conversation. The system prompt is built once when the session starts (or read back when it
 * resumes) and sent byte-for-byte on every call; only a context compression rebuilds it.
 */
export class AgentSession {
  readonly events = new EventBus<AgentEvent>()
  readonly approvals: ApprovalBroker
  private readonly sensitiveReads: string[] = [] // read outside the workspace or secret-looking (workspace/approval.ts)
  private readonly tools: Map<string, ToolDef>
  private readonly toolSchemas: ChatCompletionTool[]
  private history: MessageRecord[]
  private readonly liveEvidence = new LiveEvidence() // what was said and read: where learned content came from
  private running: AbortController | null = null
  /** Id of the running (or last) turn, stamped on every event. */
  private turnId = ''
  /** Turn whose compression failed: not retried on its later steps (a failing summariser would cost a call each step). */
  private compressionFailedTurn = ''
  private nextAttachments: SavedAttachment[] = [] // stored for the user message beginTurn writes next
  readonly projectInstructions: ProjectInstructionFile[] // the repository's, read at open: in the chat header, counted as read

  private constructor(private readonly options: AgentSessionOptions, private session: SessionRecord) {
    const { stores } = options
    this.tools = new Map(options.tools.map((tool) => [tool.name, tool]))
    this.toolSchemas = options.tools.map((tool) => toolSchema(tool))
    this.history = orderForModel(stores.sessions.messages(session.id))
    this.liveEvidence.update(stores.sessions.messages(session.id, { includeCompacted: true })) // a resumed one, summarised parts too
    this.projectInstructions = addInstructionsRead(this.liveEvidence.evidence, readProjectInstructions(options.workspace))
    this.approvals = chatApprovals({ settings: stores.config, autoApprove: options.autoApprove, emit: (event) => this.emit(event) })
  }

  static open(options: AgentSessionOptions): AgentSession {
    const { stores } = options
    const toolNames = new Set(options.tools.map((t) => t.name))
    if (options.sessionId) {
      const existing = stores.sessions.get(options.sessionId)
      if (!existing) throw new KeyedError('session.missing', { id: options.sessionId })
      const session = existing.systemPrompt
        ? existing
        : stores.sessions.update(existing.id, { systemPrompt: composeSystemPrompt(stores, toolNames, options.workspace, existing, new Date(), mcpPromptInfo(options.tools)) })
      return new AgentSession(options, session)
    }
    const session = stores.sessions.create({
      source: options.source ?? 'cli',
      model: resolveProvider(options.provider).settings.model,
      systemPrompt: composeSystemPrompt(stores, toolNames, options.workspace, null, new Date(), mcpPromptInfo(options.tools)),
      workspace: options.workspace
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

  /** The user's words of the last turn (without the skill hint Cairn added), or null. */
  lastUserText(): string | null {
    const last = [...this.history].reverse().find((r) => r.role === 'user')
    return last ? userWords(last) : null
  }

  /**
   * Starts a user turn and returns at once with its id; `done` gives its summary once it has ended.
   * Every failure (provider, tool, database) ends the turn with an `error` event and `turn_finished`; only starting while another turn runs throws.
   */
  runTurn(text: string, options: { signal?: AbortSignal; attachments?: SavedAttachment[] } = {}): TurnHandle {
    if (!this.running) this.nextAttachments = options.attachments ?? []
    return this.startTurn(text, options)
  }

  /**
   * Answers the last user message again. The answer it had (with its tool calls) is kept as an
   * earlier version the user can go back to; the user message stays as it is.
   */
  regenerate(options: { signal?: AbortSignal } = {}): TurnHandle {
    const lastUser = [...this.history].reverse().find((r) => r.role === 'user')
    if (!lastUser) throw new Error('There is no message to answer again.')
    return this.startTurn(userWords(lastUser), options, () => {
      this.options.stores.sessions.forkAfter(this.id, lastUser.id)
      this.reloadHistory()
      return lastUser
    })
  }

  /**
   * Sends `text` in place of the user message `messageId`: that message and everything after it
   * are kept as an earlier version, and the conversation goes on from the message before it.
   */
  editAndResend(messageId: number, text: string, options: { signal?: AbortSignal } = {}): TurnHandle {
    const shown = this.options.stores.sessions.messages(this.id, { includeCompacted: true }).filter((r) => r.role !== 'summary')
    const index = shown.findIndex((r) => r.id === messageId)
    if (index < 0 || shown[index].role !== 'user') throw new VersionError('not_a_user_message', { key: 'version.not_a_user_message' })
    const afterId = index > 0 ? shown[index - 1].id : 0
    // The files sent with the message go with its new words.
    if (!this.running) this.nextAttachments = attachmentsToResend(this.options.stores.attachments, shown[index].id, shown[index].meta)
    return this.startTurn(text, options, () => {
      this.options.stores.sessions.forkAfter(this.id, afterId)
      this.reloadHistory()
    })
  }

  /** Shows another version of the conversation from where it forked (not while a turn runs). */
  showVersion(branchId: number): void {
    if (this.running) throw new Error('A turn is running in this session; stop it before choosing another version.')
    this.options.stores.sessions.showVersion(this.id, branchId)
    this.reloadHistory()
  }

  private reloadHistory(): void {
    this.history = orderForModel(this.options.stores.sessions.messages(this.id))
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
    return [{ role: 'system', content: this.systemPrompt }, ...toChatMessages(this.history, this.options.stores.attachments)]
  }

  private startTurn(text: string, options: { signal?: AbortSignal }, beforeUserMessage?: () => MessageRecord | void): TurnHandle {
    if (this.running) throw new Error('A turn is already running in this session.')
    const controller = new AbortController()
    this.running = controller
    const turn = new TurnProgress(this.id, text)
    // A secret read earlier stays in the conversation's context: fetches keep asking for the whole session.
    turn.toolState.sensitiveReads = this.sensitiveReads
    this.turnId = turn.id
    const onOuterAbort = () => this.cancel()
    options.signal?.addEventListener('abort', onOuterAbort, { once: true })
    const release = () => {
      options.signal?.removeEventListener('abort', onOuterAbort)
      this.running = null
    }
    return { turnId: turn.id, done: this.playTurn(turn, controller.signal, release, beforeUserMessage) }
  }

  /** Runs a started turn to its end; setup happens inside, so a failing first write ends the turn like any other failure. */
  private async playTurn(turn: TurnProgress, signal: AbortSignal, release: () => void, beforeUserMessage?: () => MessageRecord | void): Promise<TurnSummary> {
    try {
      const setup: TurnSetup = {
        provider: resolveProvider(this.options.provider),
        maxIterations: this.options.stores.config.get().agent.maxIterations,
        signal
      }
      // A new turn: the failure of the one before is no longer the conversation's last word.
      clearTurnFailure(this.options.stores.sessions, this.id)
      const answerAgain = beforeUserMessage?.()
      if (answerAgain) {
        turn.userMessageId = answerAgain.id
        this.emit({ type: 'turn_started', userMessageId: answerAgain.id })
      } else this.beginTurn(turn, await turnNotes(turn.userText, { ...this.options, sessionId: this.id, catalogue: indexSkills(this.options.stores), signal }))
      let going = true
      while (going) going = await this.step(turn, setup)
    } catch (error) {
      this.endEarly(turn, error, signal)
    } finally {
      release()
    }
    return this.finishTurn(turn)
  }

  /**
   * Saves the user's message and names a new conversation after it. Skill hints and recalled memory go in
   * `meta.hint` / `meta.recall` only (the model gets them, see `modelText`), so they are never shown or searched.
   */
  private beginTurn(turn: TurnProgress, notes: TurnNotes): void {
    const { sessions } = this.options.stores
    const attachments = this.nextAttachments.splice(0)
    const userRecord = sessions.append(this.id, { role: 'user', content: turn.userText, meta: userMessageMeta(notes.hint, attachments, notes.recall) })
    if (attachments.length) this.options.stores.attachments?.index(userRecord.id, attachments)
    turn.userMessageId = userRecord.id
    this.history.push(userRecord)
    this.emit({ type: 'turn_started', userMessageId: userRecord.id, ...(notes.recall ? { recalled: notes.recall.items } : {}) })
    if (!this.session.title) this.session = sessions.update(this.id, { title: titleFrom(turn.userText) })
  }

  /** One model call and the tools it asks for. Returns whether the turn goes on. */
  private async step(turn: TurnProgress, setup: TurnSetup): Promise<boolean> {
    if (turn.iterations >= setup.maxIterations) {
      this.stopAtStepLimit(turn, setup.maxIterations)
      return false
    }
    turn.iterations++
    await this.compressIfNeeded(setup.signal)
    const reply = await this.callModel(turn, setup)
    this.recordReply(turn, reply, setup.provider.settings.model)
    if (!reply.toolCalls.length) return false
    await this.runTools(turn, reply.toolCalls, setup.signal)
    if (!setup.signal.aborted) return true
    turn.reason = 'cancelled'
    return false
  }

  private stopAtStepLimit(turn: TurnProgress, limit: number): void {
    turn.reason = 'max_iterations'
    turn.answer = stepLimitAnswer(turn.iterations, limit)
    this.emit({ type: 'text_delta', text: turn.answer })
    this.history.push(this.options.stores.sessions.append(this.id, { role: 'assistant', content: turn.answer, finishReason: 'max_iterations' }))
  }

  /** Streams one response to the user, keeping the text shown so far in case the turn is stopped mid-stream. */
  private async callModel(turn: TurnProgress, setup: TurnSetup): Promise<ModelStep> {
    turn.streamed = ''
    const reply = await modelStep(setup.provider, {
      messages: this.modelMessages(),
      tools: this.toolSchemas,
      signal: setup.signal,
      onTextDelta: (delta) => {
        turn.streamed += delta
        this.emit({ type: 'text_delta', text: delta })
      },
      onRetry: (notice) => {
        if (notice.discardPartial) turn.streamed = ''
        this.emit({ type: 'retry', ...notice })
      }
    })
    if (reply.usage) {
      turn.addUsage(reply.usage)
      this.emit({ type: 'usage', usage: { ...reply.usage } })
    }
    return reply
  }

  /** Stores the reply with the model that wrote it (a conversation may switch models). */
  private recordReply(turn: TurnProgress, reply: ModelStep, model: string): void {
    const assistant = this.options.stores.sessions.append(this.id, {
      role: 'assistant',
      content: reply.content,
      toolCalls: reply.toolCalls.length ? reply.toolCalls : null,
      finishReason: reply.finishReason,
      promptTokens: reply.usage?.promptTokens,
      completionTokens: reply.usage?.completionTokens,
      cachedTokens: reply.usage?.cachedTokens,
      meta: { model }
    })
    turn.streamed = ''
    this.history.push(assistant)
    this.emit({ type: 'assistant_message', messageId: assistant.id, content: reply.content, toolCallCount: reply.toolCalls.length })
    if (reply.content) turn.answer = reply.content
  }

  private async runTools(turn: TurnProgress, calls: ModelToolCall[], signal: AbortSignal): Promise<void> {
    const outcomes = await executeToolCalls(calls, {
      sessionId: this.id,
      turnId: turn.id,
      tools: this.tools,
      sessions: this.options.stores.sessions,
      emit: (event) => this.events.emit(event),
      signal,
      context: (call) => ({
        write: { source: 'agent', sessionId: this.id },
        evidence: this.liveEvidence.update(this.history),
        turn: turn.toolState,
        signal,
        workspace: this.options.workspace,
        approve: (request) => this.approvals.request(request, signal, call.id)
      })
    })
    turn.addToolOutcomes(outcomes)
    for (const outcome of outcomes) this.history.push(outcome.record)
  }

  /** A turn cut short: stopped by the user (keeping the text already shown), or failed, which the user is told. */
  private endEarly(turn: TurnProgress, error: unknown, signal: AbortSignal): void {
    if (!isCancellation(error, signal)) {
      turn.reason = 'failed'
      const failure = turnFailure(error)
      this.emit({ type: 'error', ...failure })
      this.keepFailure(turn, failure)
      return
    }
    turn.reason = 'cancelled'
    if (!turn.streamed) return
    turn.answer = turn.streamed
    try {
      // Keep what the user already saw; the next turn's history stays valid (no tool calls).
      this.history.push(this.options.stores.sessions.append(this.id, { role: 'assistant', content: turn.streamed, finishReason: 'cancelled' }))
    } catch (saveError) {
      console.error('cairn: could not save the interrupted answer:', saveError)
    }
  }

  /** Keeps the failure with the conversation, at the message it answered, so a reopened conversation still shows it with Retry. */
  private keepFailure(turn: TurnProgress, failure: ReturnType<typeof turnFailure>): void {
    if (turn.userMessageId === null) return
    try {
      recordTurnFailure(this.options.stores.sessions, this.id, { messageId: turn.userMessageId, ...failure, at: Date.now() })
    } catch (saveError) {
      // The conversation may be gone (deleted mid-turn): the live error event has said it all.
      console.error('cairn: could not keep the failed turn with its conversation:', saveError)
    }
  }

  private finishTurn(turn: TurnProgress): TurnSummary {
    const summary = turn.summary()
    this.emit({ type: 'turn_finished', reason: turn.reason, text: turn.answer, usage: turn.usage, toolCalls: turn.toolCalls.length })
    if (turn.reason === 'completed') syncFinishedTurn(this.options.recall, this.options.workspace, { sessionId: this.id, userText: turn.userText, answer: turn.answer })
    try {
      this.options.hooks?.onTurnFinished?.(summary)
    } catch (error) {
      console.error('cairn: turn hook failed:', error)
    }
    return summary
  }

  /** Summarises the middle of the conversation when the next call would pass `context.compressAt` of the window. */
  private async compressIfNeeded(signal: AbortSignal): Promise<void> {
    const { stores } = this.options
    const { compressAt, windowTokens } = stores.config.get().context
    const threshold = Math.floor(compressAt * windowTokens)
    const tokensBefore = estimatePromptTokens(this.modelMessages(), this.toolSchemas)
    if (tokensBefore <= threshold || this.compressionFailedTurn === this.turnId) return
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
      this.compressionFailedTurn = this.turnId
      this.emit({ type: 'error', code: 'compression_failed', message: `Could not condense the conversation: ${(error as Error).message}`, retryable: false })
      return
    }
    // An earlier summary in the middle has a newer id than the tail it preceded: use what it covered.
    const coversThrough = Math.max(...plan.middle.map((r) => (r.role === 'summary' ? summaryCoversThrough(r) : r.id)))
    stores.sessions.markCompacted(this.id, plan.middle.map((r) => r.id))
    const summary = stores.sessions.append(this.id, { role: 'summary', content: summaryText, meta: { coversThrough } })
    this.history = [...plan.head, summary, ...plan.tail]
    const toolNames = new Set(this.tools.keys())
    this.session = stores.sessions.update(this.id, {
      systemPrompt: composeSystemPrompt(stores, toolNames, this.options.workspace, stores.sessions.get(this.id), new Date(), mcpPromptInfo(this.options.tools))
    })
    const tokensAfter = estimatePromptTokens(this.modelMessages(), this.toolSchemas)
    this.emit({ type: 'compressed', summarizedMessages: plan.middle.length, tokensBefore, tokensAfter })
  }

  private emit(event: TurnEvent): void {
    this.events.emit({ ...event, sessionId: this.id, turnId: this.turnId } as AgentEvent)
  }
}

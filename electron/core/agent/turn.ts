import { randomUUID } from 'node:crypto'
import type { AgentEvent, TurnEndReason, TurnUsage } from '../../../shared/agent-events'
import type { DistributiveOmit } from '../../../shared/type-utils'
import type { TokenUsage } from '../provider/provider'
import { ProviderError } from '../provider/provider-errors'
import { SessionNotFoundError, VersionError } from '../sessions'
import { ellipsize } from '../text/cut'
import { newTurnState, type TurnState } from '../tools/types'
import type { ToolCallOutcome } from './tool-executor'

/** What a finished turn did, for the learning loop's triggers. */
export interface TurnSummary {
  sessionId: string
  turnId: string
  reason: TurnEndReason
  userText: string
  answer: string
  iterations: number
  toolCalls: Array<{ name: string; ok: boolean; arguments: string }>
  /** The chat model's calls plus what tools spent on model calls of their own (session_search summaries). */
  usage: TurnUsage
}

/** An event as a turn step emits it; the session stamps its own id and the turn's. */
export type TurnEvent = DistributiveOmit<AgentEvent, 'sessionId' | 'turnId'>

/** A turn that has started: its id at once, its summary when it has ended. `done` never rejects. */
export interface TurnHandle {
  turnId: string
  done: Promise<TurnSummary>
}

/** What one turn has done so far; it becomes the turn's summary. */
export class TurnProgress {
  readonly id = randomUUID()
  readonly usage: TurnUsage = { promptTokens: 0, completionTokens: 0, cachedTokens: 0 }
  readonly toolCalls: TurnSummary['toolCalls'] = []
  /** Shared by the turn's tool calls (the memory breaker, skills viewed before a patch). */
  readonly toolState: TurnState = newTurnState()
  answer = ''
  /** Text of the model call in progress, kept if the turn is cancelled mid-stream. */
  streamed = ''
  iterations = 0
  reason: TurnEndReason = 'completed'
  /** The user message this turn answers, once stored (or found again): a failure is kept with it. */
  userMessageId: number | null = null

  constructor(readonly sessionId: string, readonly userText: string) {}

  addUsage(usage: TokenUsage): void {
    this.usage.promptTokens += usage.promptTokens
    this.usage.completionTokens += usage.completionTokens
    this.usage.cachedTokens += usage.cachedTokens
  }

  /** Records the calls, and counts what the tools spent on model calls of their own into the turn's usage. */
  addToolOutcomes(outcomes: ToolCallOutcome[]): void {
    for (const { call, ok, usage } of outcomes) {
      this.toolCalls.push({ name: call.name, ok, arguments: call.arguments })
      if (usage) this.addUsage(usage)
    }
  }

  summary(): TurnSummary {
    const { sessionId, id: turnId, reason, userText, answer, iterations, toolCalls, usage } = this
    return { sessionId, turnId, reason, userText, answer, iterations, toolCalls, usage }
  }
}

/** The turn was stopped by the user rather than failing. */
export function isCancellation(error: unknown, signal: AbortSignal): boolean {
  return signal.aborted || (error instanceof ProviderError && error.code === 'cancelled')
}

/** The `error` event for a failure that ended a turn: the provider's own words, or what else went wrong. */
export function turnFailure(error: unknown): Pick<Extract<AgentEvent, { type: 'error' }>, 'code' | 'message' | 'retryable' | 'params'> {
  if (error instanceof ProviderError) return { code: error.code, message: error.message, retryable: error.retryable, ...(error.params ? { params: { ...error.params } } : {}) }
  if (error instanceof SessionNotFoundError) {
    return { code: 'session_deleted', message: 'This conversation has been deleted. Start a new one to go on.', retryable: false }
  }
  if (error instanceof VersionError) return { code: 'version_condensed', message: error.message, retryable: false }
  return { code: 'internal', message: `Something went wrong: ${error instanceof Error ? error.message : String(error)}`, retryable: false }
}

export function stepLimitAnswer(steps: number, limit: number): string {
  return `I stopped after ${steps} steps without finishing (the limit is agent.maxIterations = ${limit}). Tell me to continue if you want me to go on.`
}

export function titleFrom(text: string): string {
  return ellipsize(text, 60)
}

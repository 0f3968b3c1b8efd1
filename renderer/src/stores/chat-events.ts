import type { AgentEvent } from '../../../shared/agent-events'
import type { IpcErrorParams } from '../../../shared/ipc/define'
import { failureOf } from '../ipc/error-words'
import { lastIndexWhere, type ChatItem, type ToolItem } from './chat-items'

export type ApprovalRequest = Extract<AgentEvent, { type: 'approval_needed' }> & { submitting?: boolean }

/** How to try again after a failure: resend text that never reached main, or answer the last message again. */
export type RetryPlan = { kind: 'send'; text: string } | { kind: 'regenerate' }

export interface ChatError {
  code: string
  /** English, as main wrote it; the UI words known codes itself (see describeTurnError). */
  message: string
  /** What a refused request's code refers to (e.g. the missing provider setting), when main said. */
  params?: IpcErrorParams | null
  /** Which words say what went wrong (shared/error-keys.ts), when main sent one. */
  key?: string | null
  retryable: boolean
  plan: RetryPlan | null
  /** A failure kept with the conversation: when it was recorded (so one dismissed is not shown again). */
  keptAt?: number
}

export interface RetryStatus {
  attempt: number
  delayMs: number
  reason: string
}

/** The part of the chat state that turn events drive. */
export interface TurnSlice {
  items: ChatItem[]
  /** Text of the model call in progress (deltas since the last completed message). */
  streaming: string
  running: boolean
  turnId: string | null
  approvals: ApprovalRequest[]
  error: ChatError | null
  retrying: RetryStatus | null
}

/** Applies one turn event. Pure, and idempotent for rows main already stored (replays after a reload). */
export function applyAgentEvent(slice: TurnSlice, event: AgentEvent): TurnSlice {
  switch (event.type) {
    case 'turn_started': {
      let items = slice.items
      const known = items.some((item) => item.kind === 'user' && item.id === event.userMessageId)
      const pending = lastIndexWhere(items, (item) => item.kind === 'user' && Boolean(item.pending))
      if (!known && pending >= 0) {
        items = replaceAt(items, pending, { ...items[pending], id: event.userMessageId, pending: false, ...(event.recalled?.length ? { recalled: event.recalled } : {}) } as ChatItem)
      }
      return { ...slice, items, running: true, turnId: event.turnId, streaming: '', error: null, retrying: null, approvals: [] }
    }
    case 'text_delta':
      return { ...slice, streaming: slice.streaming + event.text, retrying: null }
    case 'retry':
      return {
        ...slice,
        streaming: event.discardPartial ? '' : slice.streaming,
        retrying: { attempt: event.attempt, delayMs: event.delayMs, reason: event.reason }
      }
    case 'assistant_message': {
      const exists = slice.items.some((item) => item.kind === 'assistant' && item.id === event.messageId)
      const items = exists || !event.content.trim()
        ? slice.items
        : [...slice.items, { kind: 'assistant' as const, key: `m:${event.messageId}`, id: event.messageId, text: event.content }]
      return { ...slice, items, streaming: '', retrying: null }
    }
    case 'tool_call_started': {
      if (slice.items.some((item) => item.kind === 'tool' && item.callId === event.callId)) return slice
      const tool: ToolItem = {
        kind: 'tool',
        key: `t:${event.callId}`,
        callId: event.callId,
        name: event.name,
        arguments: event.arguments,
        result: null,
        ok: null,
        durationMs: null
      }
      return { ...slice, items: [...slice.items, tool] }
    }
    case 'tool_call_finished': {
      const at = lastIndexWhere(slice.items, (item) => item.kind === 'tool' && item.callId === event.callId)
      const finished = { result: event.result, ok: event.ok, durationMs: event.durationMs }
      if (at >= 0) {
        const current = slice.items[at] as ToolItem
        if (current.result === event.result && current.ok === event.ok && current.durationMs === event.durationMs) return slice
        return { ...slice, items: replaceAt(slice.items, at, { ...current, ...finished }) }
      }
      const tool: ToolItem = { kind: 'tool', key: `t:${event.callId}`, callId: event.callId, name: event.name, arguments: '', ...finished }
      return { ...slice, items: [...slice.items, tool] }
    }
    case 'approval_needed':
      if (slice.approvals.some((a) => a.requestId === event.requestId)) return slice
      return { ...slice, approvals: [...slice.approvals, event] }
    case 'approval_resolved':
      return { ...slice, approvals: slice.approvals.filter((a) => a.requestId !== event.requestId) }
    case 'compressed':
      return {
        ...slice,
        items: [
          ...slice.items,
          {
            kind: 'note',
            key: `n:${event.turnId}:${slice.items.length}`,
            note: { type: 'compressed', messages: event.summarizedMessages, tokensBefore: event.tokensBefore, tokensAfter: event.tokensAfter }
          }
        ]
      }
    case 'error':
      return { ...slice, error: { code: event.code, message: event.message, params: event.params ?? null, retryable: event.retryable, plan: { kind: 'regenerate' } } }
    case 'turn_finished': {
      // Text streamed without a closing assistant_message (stopped, or the step limit) stays on screen.
      const items = slice.streaming.trim()
        ? [
            ...slice.items,
            {
              kind: 'assistant' as const,
              key: `s:${event.turnId}`,
              id: null,
              text: slice.streaming,
              ...(event.reason === 'cancelled' ? { interrupted: true } : {})
            }
          ]
        : slice.items
      return { ...slice, items, streaming: '', running: false, approvals: [], retrying: null }
    }
    case 'usage':
      return slice
  }
}

export function replaceAt<T>(list: readonly T[], index: number, value: T): T[] {
  const copy = list.slice()
  copy[index] = value
  return copy
}

/**
 * Live events that arrived while `chat.attach` was in flight overlap the tail of its replay. Drops the
 * longest prefix of `live` that equals a suffix of `replayed`, so nothing is applied twice.
 */
export function dropReplayed(replayed: AgentEvent[], live: AgentEvent[]): AgentEvent[] {
  const encode = (event: AgentEvent) => JSON.stringify(event)
  const tail = replayed.map(encode)
  const head = live.map(encode)
  for (let overlap = Math.min(tail.length, head.length); overlap > 0; overlap--) {
    let same = true
    for (let i = 0; i < overlap && same; i++) same = tail[tail.length - overlap + i] === head[i]
    if (same) return live.slice(overlap)
  }
  return live
}

/** A refused request as the chat shows it: its code, main's English and the params to word it from. */
export function requestFailure(error: unknown): ChatError {
  const { code, message, params, key } = failureOf(error)
  return { code, message, params, key, retryable: false, plan: null }
}

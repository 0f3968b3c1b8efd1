import type { MessageRecord } from '../sessions'
import { SUMMARY_PREFIX, toChatMessages } from './history'
import type { ChatProvider } from '../provider/provider'
import { estimateMessageTokens, estimateTokens } from '../provider/tokens'

export interface CompressionPlan {
  /** Kept verbatim at the start: the first exchange. */
  head: MessageRecord[]
  /** Summarised away (stays in the database, marked compacted). */
  middle: MessageRecord[]
  /** Kept verbatim at the end: the most recent turns. */
  tail: MessageRecord[]
}

/**
 * Splits the live history (in model order) into head, middle and tail. The head is the first
 * exchange; the tail is the most recent messages within `tailTokens`, always including the latest
 * user message; neither boundary separates a tool call from its results. Null when there is too
 * little in the middle to be worth summarising.
 */
export function planCompression(ordered: MessageRecord[], tailTokens: number): CompressionPlan | null {
  const firstUser = ordered.findIndex((r) => r.role === 'user')
  if (firstUser < 0) return null
  const nextTurn = ordered.findIndex((r, i) => i > firstUser && (r.role === 'user' || r.role === 'summary'))
  // With one long turn (many tool calls), only the user's request is kept as the head.
  const headEnd = nextTurn < 0 ? firstUser + 1 : nextTurn

  const lastUser = findLastIndex(ordered, (r) => r.role === 'user')
  const mustKeepFrom = lastUser >= headEnd ? lastUser : ordered.length - 1
  let tailStart = ordered.length
  let used = 0
  while (tailStart > headEnd) {
    const record = ordered[tailStart - 1]
    const cost = estimateTokens(record.content) + estimateTokens(JSON.stringify(record.toolCalls ?? ''))
    if (tailStart - 1 < mustKeepFrom && used + cost > tailTokens) break
    used += cost
    tailStart--
  }
  // A tool result belongs with the assistant message that called it.
  while (tailStart > headEnd && tailStart < ordered.length && ordered[tailStart].role === 'tool') tailStart--
  if (tailStart - headEnd < 2) return null
  return { head: ordered.slice(0, headEnd), middle: ordered.slice(headEnd, tailStart), tail: ordered.slice(tailStart) }
}

const SUMMARY_INSTRUCTIONS = `You are condensing the middle of a conversation between a user and Cairn, an AI assistant, so the
conversation can continue within the context window. Write a factual summary in the conversation's
language, using exactly these sections (write "none" where empty):

## Goal
## Constraints and preferences
## Completed actions  (numbered: action, target, outcome)
## Current state
## Key decisions
## Open questions
## Relevant files and commands
## Remaining work
## Critical context  (exact values, error messages, names that must not be lost)

Keep specifics (paths, commands, error texts). Never include API keys, passwords or tokens: write
[REDACTED]. Do not add anything that did not happen. Reply with the summary only.`

const PER_MESSAGE_CHARS = 6000

/** Asks the model for a structured summary of `middle`. Throws ProviderError when the provider fails. */
export async function summarizeMiddle(provider: ChatProvider, middle: MessageRecord[], signal?: AbortSignal): Promise<string> {
  const transcript = toChatMessages(middle)
    .map((message) => {
      const role = message.role.toUpperCase()
      let text = typeof message.content === 'string' ? message.content : ''
      if (text.startsWith(SUMMARY_PREFIX)) text = `(earlier summary)\n${text.slice(SUMMARY_PREFIX.length)}`
      if (message.role === 'assistant' && message.tool_calls?.length) {
        const calls = message.tool_calls.map((c) => (c.type === 'function' ? `${c.function.name}(${c.function.arguments.slice(0, 1500)})` : ''))
        text += `${text ? '\n' : ''}[called: ${calls.join('; ')}]`
      }
      if (text.length > PER_MESSAGE_CHARS) text = text.slice(0, 4000) + '\n…[truncated]…\n' + text.slice(-1500)
      return `${role}: ${text}`
    })
    .join('\n\n')
  const result = await provider.chat({
    messages: [
      { role: 'system', content: SUMMARY_INSTRUCTIONS },
      { role: 'user', content: `Conversation to summarise:\n\n${transcript}` }
    ],
    signal
  })
  const summary = result.content.trim()
  if (!summary) throw new Error('The model returned an empty summary.')
  return summary
}

export function estimateRecordsTokens(records: MessageRecord[]): number {
  return toChatMessages(records).reduce((sum, message) => sum + estimateMessageTokens(message), 0)
}

function findLastIndex<T>(items: T[], predicate: (item: T) => boolean): number {
  for (let i = items.length - 1; i >= 0; i--) if (predicate(items[i])) return i
  return -1
}

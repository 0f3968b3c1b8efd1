import type { ChatCompletionMessageParam } from 'openai/resources/chat/completions'
import { assistantMessage, toolResultMessage } from '../provider/model-step'
import type { MessageRecord } from '../sessions'
import { modelText, orderForModel } from '../sessions/stored-messages'

/** Sent in front of a compression summary so the model treats it as background, not instructions. */
export const SUMMARY_PREFIX =
  '[CONTEXT SUMMARY: earlier turns of this conversation were condensed to save space. Treat this as background reference, not as new instructions; answer the latest user message. Your memory and skills are authoritative where they differ.]\n\n'

export const INTERRUPTED_TOOL_RESULT = JSON.stringify({
  success: false,
  error: 'No result: the turn was interrupted before this tool finished.'
})

export function toChatMessages(records: MessageRecord[]): ChatCompletionMessageParam[] {
  const messages: ChatCompletionMessageParam[] = []
  let open = new Set<string>() // tool call ids still waiting for a result
  const closeOpen = () => {
    for (const id of open) messages.push(toolResultMessage(id, INTERRUPTED_TOOL_RESULT))
    open = new Set()
  }
  for (const record of orderForModel(records)) {
    if (record.role === 'tool') {
      if (!record.toolCallId || !open.has(record.toolCallId)) continue // orphaned result
      open.delete(record.toolCallId)
      messages.push(toolResultMessage(record.toolCallId, record.content ?? ''))
      continue
    }
    closeOpen()
    if (record.role === 'user') messages.push({ role: 'user', content: modelText(record) })
    else if (record.role === 'summary') messages.push({ role: 'user', content: SUMMARY_PREFIX + (record.content ?? '') })
    else if (record.role === 'assistant') {
      const calls = record.toolCalls ?? []
      messages.push(assistantMessage(record.content, calls))
      open = new Set(calls.map((c) => c.id))
    }
  }
  closeOpen()
  return messages
}

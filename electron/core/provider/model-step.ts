import type { ChatCompletionAssistantMessageParam, ChatCompletionToolMessageParam } from 'openai/resources/chat/completions'
import type { ChatProvider, ChatRequest, ChatResult, ModelToolCall } from './provider'

/**
 * One model response, with the assistant message that carries it into the next call's messages.
 * `usage` (from ChatResult) is what the provider reported for this call (`promptTokens`,
 * `completionTokens`, `cachedTokens`), or null when it reported none: a review adds these up.
 */
export interface ModelStep extends ChatResult {
  message: ChatCompletionAssistantMessageParam
}

/**
 * Calls the model once with the conversation so far (`request.messages`, the tools it may call) and
 * returns what it said, the tools it called, and the message to append before sending the tool
 * results. Provider errors propagate as they come.
 */
export async function modelStep(provider: Pick<ChatProvider, 'chat'>, request: ChatRequest): Promise<ModelStep> {
  const result = await provider.chat(request)
  return { ...result, message: assistantMessage(result.content, result.toolCalls) }
}

/** The assistant message as the chat API takes it back: content is null when the model only called tools. */
export function assistantMessage(content: string | null, toolCalls: readonly ModelToolCall[]): ChatCompletionAssistantMessageParam {
  return {
    role: 'assistant',
    content: content || (toolCalls.length ? null : ''),
    ...(toolCalls.length
      ? { tool_calls: toolCalls.map((c) => ({ id: c.id, type: 'function' as const, function: { name: c.name, arguments: c.arguments } })) }
      : {})
  }
}

/** The answer to one tool call, sent after the assistant message that made it. */
export function toolResultMessage(toolCallId: string, content: string): ChatCompletionToolMessageParam {
  return { role: 'tool', tool_call_id: toolCallId, content }
}

import type { ChatCompletionMessageParam, ChatCompletionTool } from 'openai/resources/chat/completions'

// Ideographs and kana take about one token each; other text about four characters a token.
const WIDE = /[\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uac00-\ud7af\uf900-\ufaff]/g

/** A cheap, provider-independent token estimate, good enough for budgets and compression triggers. */
export function estimateTokens(text: string | null | undefined): number {
  if (!text) return 0
  const wide = text.match(WIDE)?.length ?? 0
  return Math.ceil((text.length - wide) / 4) + wide
}

const MESSAGE_OVERHEAD = 4

export function estimateMessageTokens(message: ChatCompletionMessageParam): number {
  let total = MESSAGE_OVERHEAD
  const content = message.content
  if (typeof content === 'string') total += estimateTokens(content)
  else if (Array.isArray(content)) {
    for (const part of content) if ('text' in part && typeof part.text === 'string') total += estimateTokens(part.text)
  }
  if (message.role === 'assistant' && message.tool_calls) {
    for (const call of message.tool_calls) {
      if (call.type === 'function') total += estimateTokens(call.function.name) + estimateTokens(call.function.arguments)
    }
  }
  return total
}

export function estimatePromptTokens(messages: ChatCompletionMessageParam[], tools: ChatCompletionTool[] = []): number {
  let total = 0
  for (const message of messages) total += estimateMessageTokens(message)
  if (tools.length) total += estimateTokens(JSON.stringify(tools))
  return total
}

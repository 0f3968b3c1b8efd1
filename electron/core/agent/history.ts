import type { ChatCompletionContentPart, ChatCompletionMessageParam } from 'openai/resources/chat/completions'
import { attachmentBlock, attachmentMetas, attachmentNames, type AttachmentReader } from '../attachments'
import { assistantMessage, toolResultMessage } from '../provider/model-step'
import type { MessageRecord } from '../sessions'
import { modelText, orderForModel, userWords } from '../sessions/stored-messages'

/** Sent in front of a compression summary so the model treats it as background, not instructions. */
export const SUMMARY_PREFIX =
  '[CONTEXT SUMMARY: earlier turns of this conversation were condensed to save space. Treat this as background reference, not as new instructions; answer the latest user message. Your memory and skills are authoritative where they differ.]\n\n'

export const INTERRUPTED_TOOL_RESULT = JSON.stringify({
  success: false,
  error: 'No result: the turn was interrupted before this tool finished.'
})

/**
 * The stored conversation as model messages. With `attachments`, a user message's files are read back
 * (text blocks and image parts); without, they are named only (a transcript being summarised).
 */
export function toChatMessages(records: MessageRecord[], attachments?: AttachmentReader): ChatCompletionMessageParam[] {
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
    if (record.role === 'user') messages.push(userMessage(record, attachments))
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

/**
 * A user message as the model reads it: the user's words, then each attached PDF or text file as a
 * delimited block, then the skill hint; images follow as image parts. Built from what was stored, so
 * every call of the conversation sends the same bytes and the provider's prefix cache keeps hitting.
 */
function userMessage(record: MessageRecord, reader: AttachmentReader | undefined): ChatCompletionMessageParam {
  const metas = attachmentMetas(record.meta)
  if (!metas.length) return { role: 'user', content: modelText(record) }
  const hint = modelText(record).slice(userWords(record).length)
  if (!reader) return { role: 'user', content: `${userWords(record)}\n\n${attachmentNames(metas)}${hint}` }
  const contents = reader.contentsOf(record.id, metas)
  const blocks = contents.map(attachmentBlock).filter(Boolean)
  const text = [userWords(record), ...blocks].join('\n\n') + hint
  const images: ChatCompletionContentPart[] = contents.flatMap((c) => (c.kind === 'image' ? [{ type: 'image_url' as const, image_url: { url: c.dataUrl } }] : []))
  return { role: 'user', content: images.length ? [{ type: 'text', text }, ...images] : text }
}

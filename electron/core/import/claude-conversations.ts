import type { NewMessage } from '../sessions/types'
import { fillTimes, isObject, MalformedConversationError } from './chatgpt-conversations'
import type { ImportedConversation } from './imported-sessions'

const ROLES: Record<string, 'user' | 'assistant'> = { human: 'user', user: 'user', assistant: 'assistant' }

function isoToMillis(value: unknown): number | null {
  if (typeof value !== 'string') return null
  const time = Date.parse(value)
  return Number.isFinite(time) ? time : null
}

/**
 * One conversation of Claude.ai's `conversations.json`. Its messages are a list (no tree); their words
 * are in `content` (text blocks; tool use and thinking left out) in newer exports and in `text` in
 * older ones. Attached files are named ("[file: report.pdf]"), their text is not copied in. The export
 * names no model, so none is recorded.
 */
export function convertClaudeConversation(raw: unknown): ImportedConversation {
  if (!isObject(raw)) throw new MalformedConversationError('is not a conversation object', null)
  const id = raw.uuid ?? raw.id
  if (typeof id !== 'string' || !id) throw new MalformedConversationError('has no uuid', null)
  const list = raw.chat_messages ?? []
  if (!Array.isArray(list)) throw new MalformedConversationError('has chat_messages that are not a list', id)
  const messages: NewMessage[] = []
  for (const item of list) {
    if (!isObject(item)) continue
    const role = ROLES[String(item.sender ?? item.role ?? '')]
    if (!role) continue
    const content = [messageText(item), ...fileNames(item)].filter(Boolean).join('\n')
    if (!content) continue
    const createdAt = isoToMillis(item.created_at)
    messages.push({ role, content, ...(createdAt !== null ? { createdAt } : {}) })
  }
  const startedAt = isoToMillis(raw.created_at)
  fillTimes(messages, startedAt)
  const name = typeof raw.name === 'string' ? raw.name.trim() : ''
  return { externalId: id, title: name || null, model: null, startedAt, endedAt: isoToMillis(raw.updated_at), messages }
}

function messageText(item: Record<string, unknown>): string {
  if (Array.isArray(item.content)) {
    const texts = item.content.filter((block) => isObject(block) && block.type === 'text' && typeof block.text === 'string').map((block) => (block as { text: string }).text)
    if (texts.some((text) => text.trim())) return texts.join('\n')
  }
  return typeof item.text === 'string' ? item.text : ''
}

/** Attachments (pasted or uploaded text) and files (images, PDFs), named once each. */
function fileNames(item: Record<string, unknown>): string[] {
  const names = new Set<string>()
  for (const key of ['attachments', 'files']) {
    const list = item[key]
    if (!Array.isArray(list)) continue
    for (const file of list) {
      const name = isObject(file) ? (file.file_name ?? file.name) : null
      if (typeof name === 'string' && name.trim()) names.add(name.trim())
    }
  }
  return [...names].map((name) => `[file: ${name}]`)
}

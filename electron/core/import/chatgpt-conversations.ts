import type { NewMessage } from '../sessions/types'
import type { ImportedConversation } from './imported-sessions'

/** A conversation the export holds but Cairn cannot read; the message says what is wrong with it. */
export class MalformedConversationError extends Error {
  constructor(
    message: string,
    readonly externalId: string | null
  ) {
    super(message)
    this.name = 'MalformedConversationError'
  }
}

interface ChatGptNode {
  id?: string
  parent?: string | null
  children?: string[]
  message?: ChatGptMessage | null
}

interface ChatGptMessage {
  author?: { role?: string }
  create_time?: number | null
  content?: { content_type?: string; parts?: unknown[]; text?: unknown }
  metadata?: { model_slug?: string; is_visually_hidden_from_conversation?: boolean }
  /** Who it is addressed to: `all` for the conversation, a tool's name for a tool call. */
  recipient?: string
}

/** Content types that are words between the user and ChatGPT; code runs, browsing and reasoning are not. */
const SPOKEN = new Set(['text', 'multimodal_text'])

export function secondsToMillis(seconds: unknown): number | null {
  return typeof seconds === 'number' && Number.isFinite(seconds) ? Math.round(seconds * 1000) : null
}

export function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}

/**
 * One conversation of ChatGPT's `conversations.json`: its message tree (`mapping`) flattened along the
 * branch the user last saw, from `current_node` up to the root, so regenerated answers and edited
 * questions the user moved away from are left out. User and assistant words come in (an image part
 * as "[image]"), each answer with its model in `meta.model`; tool traffic (code runs, browsing, image
 * generation calls), system prompts and hidden messages are left out, because they are not what was said.
 */
export function convertChatGptConversation(raw: unknown): ImportedConversation {
  if (!isObject(raw)) throw new MalformedConversationError('is not a conversation object', null)
  const id = raw.id ?? raw.conversation_id
  if (typeof id !== 'string' || !id) throw new MalformedConversationError('has no id', null)
  const mapping = raw.mapping
  if (!isObject(mapping)) throw new MalformedConversationError('has no message tree (mapping)', id)
  const branch = chosenBranch(mapping as Record<string, ChatGptNode>, raw.current_node, id)
  const messages: NewMessage[] = []
  let model: string | null = null
  for (const node of branch) {
    const message = node.message
    const role = message?.author?.role
    if (!message || (role !== 'user' && role !== 'assistant')) continue
    if (message.metadata?.is_visually_hidden_from_conversation) continue
    if (message.recipient && message.recipient !== 'all') continue
    if (!SPOKEN.has(message.content?.content_type ?? '')) continue
    const content = partsText(message.content?.parts)
    if (!content) continue
    const createdAt = secondsToMillis(message.create_time)
    const modelSlug = message.metadata?.model_slug
    const slug = role === 'assistant' && typeof modelSlug === 'string' && modelSlug ? modelSlug : null
    if (slug) model = slug
    messages.push({ role, content, ...(createdAt !== null ? { createdAt } : {}), ...(slug ? { meta: { model: slug } } : {}) })
  }
  const startedAt = secondsToMillis(raw.create_time)
  fillTimes(messages, startedAt)
  const { title, default_model_slug: defaultModel } = raw
  return {
    externalId: id,
    title: typeof title === 'string' && title.trim() ? title.trim() : null,
    model: model ?? (typeof defaultModel === 'string' ? defaultModel : null),
    startedAt,
    endedAt: secondsToMillis(raw.update_time),
    messages
  }
}

/** The nodes from the root down to `current_node` (or, without one, to the last leaf of the newest children). */
function chosenBranch(mapping: Record<string, ChatGptNode>, currentNode: unknown, id: string): ChatGptNode[] {
  let cursor = typeof currentNode === 'string' && mapping[currentNode] ? currentNode : lastLeaf(mapping)
  const path: ChatGptNode[] = []
  const seen = new Set<string>()
  while (cursor) {
    if (seen.has(cursor)) throw new MalformedConversationError('has a message tree that loops', id)
    seen.add(cursor)
    const node = mapping[cursor]
    if (!isObject(node)) throw new MalformedConversationError(`has a message tree naming a missing node (${cursor})`, id)
    path.push(node)
    cursor = typeof node.parent === 'string' ? node.parent : ''
  }
  return path.reverse()
}

/** Without `current_node` (older exports): from the root, always the last (newest) child. */
function lastLeaf(mapping: Record<string, ChatGptNode>): string {
  let cursor = Object.keys(mapping).find((key) => !mapping[key]?.parent) ?? ''
  for (let guard = 0; cursor && guard < 100_000; guard++) {
    const children = mapping[cursor]?.children?.filter((child) => mapping[child])
    if (!children?.length) break
    cursor = children[children.length - 1]
  }
  return cursor
}

/** Text parts as they are, images named, other attachments (audio, files) by what they hold when it is text. */
function partsText(parts: unknown[] | undefined): string {
  if (!Array.isArray(parts)) return ''
  const pieces: string[] = []
  for (const part of parts) {
    if (typeof part === 'string') {
      if (part.trim()) pieces.push(part)
    } else if (isObject(part)) {
      if (part.content_type === 'image_asset_pointer') pieces.push('[image]')
      else if (typeof part.text === 'string' && part.text.trim()) pieces.push(part.text)
    }
  }
  return pieces.join('\n')
}

/** Messages without a time of their own take the one before them (or the conversation's start), so order holds. */
export function fillTimes(messages: NewMessage[], startedAt: number | null): void {
  let last = startedAt
  for (const message of messages) {
    if (message.createdAt === undefined) {
      if (last !== null) message.createdAt = last
    } else last = message.createdAt
  }
}

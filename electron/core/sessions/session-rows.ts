import type { MessageRecord, MessageRole, SessionRecord, ToolCallRecord } from './types'

/** Rows of `sessions` and `messages` as SQLite returns them, and their conversion to records. */

export interface SessionRow {
  id: string
  title: string | null
  source: string
  model: string | null
  parent_session_id: string | null
  started_at: number
  updated_at: number
  message_count: number
  input_tokens: number
  output_tokens: number
  cached_tokens: number
  system_prompt: string | null
  /** Added by migration 3; absent only in rows read before it ran. */
  workspace?: string | null
  state: string | null
  /** Added by migration 8. */
  pinned?: number
  archived?: number
}

export interface MessageRow {
  id: number
  session_id: string
  role: MessageRole
  content: string | null
  tool_calls: string | null
  tool_call_id: string | null
  tool_name: string | null
  created_at: number
  prompt_tokens: number | null
  completion_tokens: number | null
  cached_tokens: number | null
  finish_reason: string | null
  compacted: number
  meta: string | null
  tool_call_text: string | null
}

export function toSession(row: SessionRow): SessionRecord {
  return {
    id: row.id,
    title: row.title,
    source: row.source,
    model: row.model,
    parentSessionId: row.parent_session_id,
    startedAt: row.started_at,
    updatedAt: row.updated_at,
    messageCount: row.message_count,
    inputTokens: row.input_tokens,
    outputTokens: row.output_tokens,
    cachedTokens: row.cached_tokens,
    systemPrompt: row.system_prompt,
    workspace: row.workspace ?? null,
    pinned: row.pinned === 1,
    archived: row.archived === 1,
    state: parseObject(row.state) ?? {}
  }
}

export function toMessage(row: MessageRow): MessageRecord {
  return {
    id: row.id,
    sessionId: row.session_id,
    role: row.role,
    content: row.content,
    toolCalls: parseToolCalls(row.tool_calls),
    toolCallId: row.tool_call_id,
    toolName: row.tool_name,
    createdAt: row.created_at,
    promptTokens: row.prompt_tokens,
    completionTokens: row.completion_tokens,
    cachedTokens: row.cached_tokens,
    finishReason: row.finish_reason,
    compacted: row.compacted === 1,
    meta: parseObject(row.meta)
  }
}

export function parseObject(text: string | null): Record<string, unknown> | null {
  if (!text) return null
  try {
    const value = JSON.parse(text) as unknown
    return value && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : null
  } catch {
    return null
  }
}

export function parseToolCalls(text: string | null): ToolCallRecord[] | null {
  if (!text) return null
  try {
    const value = JSON.parse(text) as unknown
    return Array.isArray(value) ? (value as ToolCallRecord[]) : null
  } catch {
    return null
  }
}

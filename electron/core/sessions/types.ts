/** Shapes of the session database (`sessions` and `messages` in state.db). Times are epoch milliseconds. */

export type MessageRole = 'system' | 'user' | 'assistant' | 'tool' | 'summary'

export const messageRoles: readonly MessageRole[] = ['system', 'user', 'assistant', 'tool', 'summary']

/** One function call an assistant message asked for; `arguments` is the raw JSON text the model sent. */
export interface ToolCallRecord {
  id: string
  name: string
  arguments: string
}

export interface SessionRecord {
  id: string
  title: string | null
  /** Where the session ran: 'cli', 'desktop', 'review', an import name … */
  source: string
  model: string | null
  parentSessionId: string | null
  startedAt: number
  /** Time of the last message or metadata change. */
  updatedAt: number
  messageCount: number
  inputTokens: number
  outputTokens: number
  cachedTokens: number
  systemPrompt: string | null
  /** The absolute folder its workspace tools work in; null for sessions from before workspaces were stored. */
  workspace: string | null
  /** Shown first in the conversations list. */
  pinned: boolean
  /** Hidden from the conversations list until the user shows archived ones; still searchable. */
  archived: boolean
  /** Free-form state the agent keeps with the session (counters, flags). */
  state: Record<string, unknown>
}

export interface MessageRecord {
  id: number
  sessionId: string
  role: MessageRole
  content: string | null
  toolCalls: ToolCallRecord[] | null
  toolCallId: string | null
  toolName: string | null
  createdAt: number
  promptTokens: number | null
  completionTokens: number | null
  cachedTokens: number | null
  finishReason: string | null
  /** Summarised away by context compression: no longer sent to the model, still searchable. */
  compacted: boolean
  /** Small structured facts the agent keeps with a message (e.g. which messages a summary covers); not searched. */
  meta: Record<string, unknown> | null
}

export interface NewMessage {
  role: MessageRole
  content?: string | null
  toolCalls?: ToolCallRecord[] | null
  toolCallId?: string | null
  toolName?: string | null
  promptTokens?: number
  completionTokens?: number
  cachedTokens?: number
  finishReason?: string | null
  createdAt?: number
  meta?: Record<string, unknown> | null
}

export interface NewSession {
  id?: string
  title?: string | null
  source?: string
  model?: string | null
  parentSessionId?: string | null
  systemPrompt?: string | null
  workspace?: string | null
  startedAt?: number
}

/** `title`, `pinned`, `archived` and `model` are how the list shows a conversation (or will answer), not activity: they leave `updatedAt` as it is. */
export interface SessionPatch {
  title?: string | null
  pinned?: boolean
  archived?: boolean
  model?: string | null
  systemPrompt?: string | null
  workspace?: string | null
  state?: Record<string, unknown>
}

export interface ListSessionsOptions {
  limit?: number
  /** The `nextCursor` of the previous page (opaque); none for the first page. */
  cursor?: string
  /** Only archived (true) or only not archived (false) conversations; both when left out. */
  archived?: boolean
  source?: string
  /** The conversations list's order: pinned ones first, then by last activity. Otherwise by last activity alone. */
  pinnedFirst?: boolean
}

/** One page of conversations; `nextCursor` is null on the last page. */
export interface SessionPage {
  sessions: SessionRecord[]
  nextCursor: string | null
}

export interface ListMessagesOptions {
  /** Only messages with a larger id (paging forward, or catching up after a known message). */
  afterId?: number
  limit?: number
  /** Also return messages summarised away by compression (default false: what the model still sees). */
  includeCompacted?: boolean
}

/** Where a page of the shown path sits: at most one of `before`, `after`, `around` (none: the last page). */
export interface PageAt {
  limit?: number
  before?: number
  after?: number
  around?: number
}

import { randomBytes } from 'node:crypto'
import type { Statement } from 'better-sqlite3'
import type { StateDb } from '../db/state-db'
import { markedWordsOf } from '../db/cjk-segment'
import { findUnanswered, type UnansweredScope } from './turn-failure'
import { forkAfter, showVersion, versionGroups, type VersionGroup } from './message-branches'
import { DEFAULT_PAGE_SIZE, lastPage, MAX_PAGE_SIZE, pageAfter, pageAround, pageBefore, type MessagePage } from './message-pages'
import { parseObject, parseToolCalls, toMessage, toSession, type MessageRow, type SessionRow } from './session-rows'
import { listSessions } from './session-pages'
import {
  messageRoles,
  type ListMessagesOptions,
  type ListSessionsOptions,
  type MessageRecord,
  type MessageRole,
  type NewMessage,
  type NewSession,
  type PageAt,
  type SessionPatch,
  type SessionPage,
  type SessionRecord,
  type ToolCallRecord
} from './types'

export { toMessage, toSession, type MessageRow, type SessionRow } from './session-rows'

export class SessionNotFoundError extends Error {
  constructor(readonly sessionId: string) {
    super(`Session "${sessionId}" does not exist. List sessions to find its id, or create a new session first.`)
    this.name = 'SessionNotFoundError'
  }
}

export class InvalidMessageError extends Error {
  constructor(message: string) {
    super(message)
    this.name = 'InvalidMessageError'
  }
}

/** `20261129-152301-a1b2c3`: sorts by start time (UTC), readable in a file list; `create` redraws a taken suffix. */
export function newSessionId(at: number = Date.now()): string {
  const iso = new Date(at).toISOString()
  const stamp = `${iso.slice(0, 10).replace(/-/g, '')}-${iso.slice(11, 19).replace(/:/g, '')}`
  return `${stamp}-${randomBytes(3).toString('hex')}`
}

/** 16.7 million suffixes a second: a few redraws at most, unless something else is wrong. */
const MAX_ID_ATTEMPTS = 20

/**
 * Sessions and their messages in state.db. Every append is its own transaction (message row, FTS rows
 * via triggers, session counters), so a process killed mid-conversation loses nothing already appended.
 */
export class SessionStore {
  private readonly statements: {
    insertSession: Statement
    getSession: Statement
    insertMessage: Statement
    bumpSession: Statement
    getMessage: Statement
    touchSession: Statement
    deleteSession: Statement
  }

  constructor(private readonly db: StateDb) {
    this.statements = {
      insertSession: db.prepare(
        `INSERT INTO sessions (id, title, source, model, parent_session_id, started_at, updated_at, system_prompt, workspace, state)
         VALUES (@id, @title, @source, @model, @parentSessionId, @startedAt, @startedAt, @systemPrompt, @workspace, '{}')`
      ),
      getSession: db.prepare('SELECT * FROM sessions WHERE id = ?'),
      insertMessage: db.prepare(
        `INSERT INTO messages (session_id, role, content, tool_calls, tool_call_text, tool_call_id, tool_name, created_at,
           prompt_tokens, completion_tokens, cached_tokens, finish_reason, meta, segmented)
         VALUES (@sessionId, @role, @content, @toolCalls, @toolCallText, @toolCallId, @toolName, @createdAt,
           @promptTokens, @completionTokens, @cachedTokens, @finishReason, @meta, @segmented)`
      ),
      bumpSession: db.prepare(
        `UPDATE sessions SET
           message_count = message_count + 1,
           input_tokens = input_tokens + coalesce(@promptTokens, 0),
           output_tokens = output_tokens + coalesce(@completionTokens, 0),
           cached_tokens = cached_tokens + coalesce(@cachedTokens, 0),
           updated_at = max(updated_at, @createdAt)
         WHERE id = @sessionId`
      ),
      getMessage: db.prepare('SELECT * FROM messages WHERE id = ?'),
      touchSession: db.prepare('UPDATE sessions SET updated_at = max(updated_at, ?) WHERE id = ?'),
      deleteSession: db.prepare('DELETE FROM sessions WHERE id = ?')
    }
  }

  create(input: NewSession = {}): SessionRecord {
    const startedAt = input.startedAt ?? Date.now()
    if (input.parentSessionId && !this.get(input.parentSessionId)) throw new SessionNotFoundError(input.parentSessionId)
    // A generated id can be taken by a session started in the same second: draw another suffix.
    for (let attempt = 0; attempt < MAX_ID_ATTEMPTS; attempt++) {
      const id = input.id ?? newSessionId(startedAt)
      try {
        this.statements.insertSession.run({
          id,
          title: input.title ?? null,
          source: input.source ?? 'cli',
          model: input.model ?? null,
          parentSessionId: input.parentSessionId ?? null,
          startedAt,
          systemPrompt: input.systemPrompt ?? null,
          workspace: input.workspace ?? null
        })
        return this.get(id)!
      } catch (error) {
        if ((error as { code?: string }).code !== 'SQLITE_CONSTRAINT_PRIMARYKEY') throw error
        // words-ok: a caller bug (only imports and tests pass an id), for logs
        if (input.id !== undefined) throw new Error(`A session with id "${id}" already exists. Omit the id to get a fresh one.`, { cause: error })
      }
    }
    // words-ok: cannot happen in practice (random suffixes), for logs
    throw new Error(`No free session id for ${new Date(startedAt).toISOString()} after ${MAX_ID_ATTEMPTS} random suffixes.`)
  }

  get(id: string): SessionRecord | null {
    const row = this.statements.getSession.get(id) as SessionRow | undefined
    return row ? toSession(row) : null
  }

  private require(sessionId: string): SessionRecord {
    const session = this.get(sessionId)
    if (!session) throw new SessionNotFoundError(sessionId)
    return session
  }

  /** Most recent activity first (or pinned first, see `pinnedFirst`); page on with `listPage`'s cursor. */
  list(options: ListSessionsOptions = {}): SessionRecord[] {
    return this.listPage(options).sessions
  }

  /** One page and the cursor of the next (keyset paging, see session-pages.ts); a malformed cursor throws InvalidCursorError. */
  listPage(options: ListSessionsOptions = {}): SessionPage {
    return listSessions(this.db, options, clampInt(options.limit, 50, 1, 10_000))
  }

  latest(): SessionRecord | null {
    return this.list({ limit: 1 })[0] ?? null
  }

  append(sessionId: string, message: NewMessage): MessageRecord {
    return this.appendMany(sessionId, [message])[0]
  }

  /** All or nothing: one transaction for the whole batch (imports, benchmarks). */
  appendMany(sessionId: string, messages: NewMessage[]): MessageRecord[] {
    const rows = messages.map(validateMessage)
    const write = this.db.transaction(() =>
      rows.map((row): MessageRecord => {
        const bumped = this.statements.bumpSession.run({ sessionId, ...row })
        if (bumped.changes === 0) throw new SessionNotFoundError(sessionId)
        const id = Number(this.statements.insertMessage.run({ sessionId, ...row, segmented: markedWordsOf(row.content, row.toolCallText) }).lastInsertRowid)
        return {
          id,
          sessionId,
          role: row.role,
          content: row.content,
          toolCalls: parseToolCalls(row.toolCalls),
          toolCallId: row.toolCallId,
          toolName: row.toolName,
          createdAt: row.createdAt,
          promptTokens: row.promptTokens,
          completionTokens: row.completionTokens,
          cachedTokens: row.cachedTokens,
          finishReason: row.finishReason,
          compacted: false,
          meta: parseObject(row.meta)
        }
      })
    )
    return write.immediate()
  }

  /** One message by id, or null. */
  message(id: number): MessageRecord | null {
    const row = this.statements.getMessage.get(id) as MessageRow | undefined
    return row ? toMessage(row) : null
  }

  /** The shown path in order (other versions are left out). Without `includeCompacted`, the messages the model still sees. */
  messages(sessionId: string, options: ListMessagesOptions = {}): MessageRecord[] {
    const where = ['session_id = ?', 'id > ?', 'branch_id IS NULL']
    if (!options.includeCompacted) where.push('compacted = 0')
    const limit = options.limit === undefined ? -1 : clampInt(options.limit, 100, 0, Number.MAX_SAFE_INTEGER)
    const rows = this.db
      .prepare(`SELECT * FROM messages WHERE ${where.join(' AND ')} ORDER BY id LIMIT ?`)
      .all(sessionId, options.afterId ?? 0, limit) as MessageRow[]
    return rows.map(toMessage)
  }

  /**
   * One page of the shown path (compacted messages included): the last `limit` messages, or those
   * just before / after a message id, or centred on one (null when that id is not on the shown path).
   */
  messagePage(sessionId: string, at: PageAt): MessagePage | null {
    const limit = clampInt(at.limit, DEFAULT_PAGE_SIZE, 1, MAX_PAGE_SIZE)
    if (at.around !== undefined) return pageAround(this.db, sessionId, at.around, limit)
    if (at.before !== undefined) return pageBefore(this.db, sessionId, at.before, limit)
    if (at.after !== undefined) return pageAfter(this.db, sessionId, at.after, limit)
    return lastPage(this.db, sessionId, limit)
  }

  update(sessionId: string, patch: SessionPatch): SessionRecord {
    const sets: string[] = []
    const params: Record<string, unknown> = { sessionId, now: Date.now() }
    if (patch.systemPrompt !== undefined) {
      sets.push('system_prompt = @systemPrompt')
      params.systemPrompt = patch.systemPrompt
    }
    if (patch.workspace !== undefined) {
      sets.push('workspace = @workspace')
      params.workspace = patch.workspace
    }
    if (patch.state !== undefined) {
      sets.push('state = @state')
      params.state = JSON.stringify(patch.state)
    }
    // Renaming, pinning or archiving must not move the conversation in a list ordered by activity.
    const activity = sets.length > 0
    for (const flag of ['pinned', 'archived'] as const) {
      if (patch[flag] === undefined) continue
      sets.push(`${flag} = @${flag}`)
      params[flag] = patch[flag] ? 1 : 0
    }
    if (patch.title !== undefined) {
      sets.push('title = @title')
      params.title = patch.title
    }
    // Nor does choosing another model for it: nothing was said yet.
    if (patch.model !== undefined) {
      sets.push('model = @model')
      params.model = patch.model
    }
    if (activity) sets.push('updated_at = max(updated_at, @now)')
    if (sets.length === 0) return this.require(sessionId)
    const info = this.db.prepare(`UPDATE sessions SET ${sets.join(', ')} WHERE id = @sessionId`).run(params)
    if (info.changes === 0) throw new SessionNotFoundError(sessionId)
    return this.get(sessionId)!
  }

  /**
   * Sets one top-level key of the session's state, leaving the other keys and `updated_at` as they
   * are: bookkeeping (learning's counters and marks) is not activity, so it never reorders the
   * conversations list. One statement, so no other writer's keys are lost.
   */
  setStateKey(sessionId: string, key: string, value: unknown): void {
    const info = this.db
      .prepare(`UPDATE sessions SET state = json_set(CASE WHEN json_valid(state) THEN state ELSE '{}' END, '$."' || @key || '"', json(@value)) WHERE id = @sessionId`)
      .run({ sessionId, key: key.replace(/"/g, ''), value: JSON.stringify(value ?? null) })
    if (info.changes === 0) throw new SessionNotFoundError(sessionId)
  }

  /** Flags messages summarised away by compression; they leave the model's context but stay searchable. */
  markCompacted(sessionId: string, messageIds: number[]): void {
    if (!this.get(sessionId)) throw new SessionNotFoundError(sessionId)
    const mark = this.db.transaction((ids: number[]) => {
      for (let i = 0; i < ids.length; i += 500) {
        const chunk = ids.slice(i, i + 500)
        this.db
          .prepare(`UPDATE messages SET compacted = 1 WHERE session_id = ? AND id IN (${chunk.map(() => '?').join(',')})`)
          .run(sessionId, ...chunk)
      }
      this.statements.touchSession.run(Date.now(), sessionId)
    })
    mark.immediate(messageIds.filter((id) => Number.isInteger(id)))
  }

  /**
   * Keeps what is shown after `afterId` as a stored version and takes it off the shown path, so an
   * edited message or a new answer can follow (see message-branches.ts). Returns the stored version's id.
   */
  forkAfter(sessionId: string, afterId: number): number | null {
    this.require(sessionId)
    return forkAfter(this.db, sessionId, afterId)
  }

  /** Shows a stored version in place of the one shown after the same message (which is kept in turn). */
  showVersion(sessionId: string, branchId: number): void {
    this.require(sessionId)
    showVersion(this.db, sessionId, branchId)
  }

  /** Where the shown path has other versions, and which. */
  versions(sessionId: string): VersionGroup[] {
    return versionGroups(this.db, sessionId)
  }

  /** The newest conversation whose only message is `text` and whose turn failed (see turn-failure.ts), or null. */
  findUnanswered(text: string, scope: UnansweredScope): string | null {
    return findUnanswered(this.db, text, scope)
  }

  /** Removes the session, its messages and their index rows; child sessions keep existing, unparented. */
  delete(sessionId: string): void {
    const info = this.statements.deleteSession.run(sessionId)
    if (info.changes === 0) throw new SessionNotFoundError(sessionId)
  }
}

interface MessageParams {
  role: MessageRole
  content: string | null
  toolCalls: string | null
  toolCallText: string | null
  toolCallId: string | null
  toolName: string | null
  createdAt: number
  promptTokens: number | null
  completionTokens: number | null
  cachedTokens: number | null
  finishReason: string | null
  meta: string | null
}

function validateMessage(message: NewMessage, index: number): MessageParams {
  const where = `Message ${index + 1}`
  if (!messageRoles.includes(message.role)) {
    // words-ok: a writer broke the message contract (a bug, or an outside agent's tool call, which reads it as its error); the app only sees INTERNAL
    throw new InvalidMessageError(`${where} has role "${String(message.role)}"; use one of ${messageRoles.join(', ')}.`)
  }
  for (const key of ['promptTokens', 'completionTokens', 'cachedTokens'] as const) {
    const value = message[key]
    if (value !== undefined && !(Number.isInteger(value) && value >= 0)) {
      // words-ok: a writer broke the message contract (a bug, or an outside agent's tool call, which reads it as its error); the app only sees INTERNAL
      throw new InvalidMessageError(`${where} has ${key} = ${String(value)}; token counts are whole numbers ≥ 0.`)
    }
  }
  const meta = message.meta ?? null
  if (meta !== null && (typeof meta !== 'object' || Array.isArray(meta))) {
    // words-ok: a writer broke the message contract (a bug, or an outside agent's tool call, which reads it as its error); the app only sees INTERNAL
    throw new InvalidMessageError(`${where} has meta that is not an object; pass an object or omit it.`)
  }
  const toolCalls = message.toolCalls ?? null
  if (toolCalls && !toolCalls.every(isToolCall)) {
    // words-ok: a writer broke the message contract (a bug, or an outside agent's tool call, which reads it as its error); the app only sees INTERNAL
    throw new InvalidMessageError(`${where} has a malformed tool call; each needs string id, name and arguments.`)
  }
  return {
    role: message.role,
    content: message.content ?? null,
    toolCalls: toolCalls && toolCalls.length ? JSON.stringify(toolCalls) : null,
    toolCallText: toolCalls && toolCalls.length ? toolCalls.map((c) => `${c.name} ${c.arguments}`).join('\n') : null,
    toolCallId: message.toolCallId ?? null,
    toolName: message.toolName ?? null,
    createdAt: message.createdAt ?? Date.now(),
    promptTokens: message.promptTokens ?? null,
    completionTokens: message.completionTokens ?? null,
    cachedTokens: message.cachedTokens ?? null,
    finishReason: message.finishReason ?? null,
    meta: meta ? JSON.stringify(meta) : null
  }
}

function isToolCall(value: unknown): value is ToolCallRecord {
  const call = value as ToolCallRecord
  return !!call && typeof call.id === 'string' && typeof call.name === 'string' && typeof call.arguments === 'string'
}

function clampInt(value: number | undefined, fallback: number, min: number, max: number): number {
  if (value === undefined || !Number.isFinite(value)) return fallback
  return Math.min(max, Math.max(min, Math.trunc(value)))
}

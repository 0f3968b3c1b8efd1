import type { StateDb } from '../db/state-db'
import { cutMiddle } from '../text/cut'
import { toView, type MessageView } from './message-view'
import { SessionNotFoundError, type MessageRow, type SessionRow } from './session-store'
import { windowAround } from './session-search'

/** The non-search shapes of session_search: scroll around a message, read a session, list recent ones. */

export const DEFAULT_SCROLL_WINDOW = 5
export const MAX_SCROLL_WINDOW = 20
/** Long sessions are read as their first and last messages (the opening ask and where it ended). */
export const READ_HEAD = 20
export const READ_TAIL = 10

export class MessageNotInSessionError extends Error {
  constructor(sessionId: string, messageId: number) {
    super(
      `Message ${messageId} is not in session "${sessionId}". Use a match_message_id or message id returned for that session, or read the session without around_message_id.`
    )
    this.name = 'MessageNotInSessionError'
  }
}

export interface SessionHeader {
  sessionId: string
  title: string | null
  source: string
  startedAt: number
  updatedAt: number
  messageCount: number
}

export interface ScrollResult extends SessionHeader {
  aroundMessageId: number
  messages: MessageView[]
  /** Messages exist before / after the window: scroll again from the first / last id shown. */
  moreBefore: boolean
  moreAfter: boolean
}

export interface ReadResult extends SessionHeader {
  messages: MessageView[]
  truncated: boolean
  /** Messages left out between the head and the tail (0 when not truncated). */
  omitted: number
}

export interface RecentSession extends SessionHeader {
  /** The opening user message, shortened. */
  preview: string
}

/** The messages within ±`window` of `aroundMessageId` (clamped to [1, 20]); the anchor is flagged. */
export function scrollSession(db: StateDb, sessionId: string, aroundMessageId: number, window = DEFAULT_SCROLL_WINDOW): ScrollResult {
  const header = sessionHeader(db, sessionId)
  const inSession = db.prepare('SELECT 1 FROM messages WHERE id = ? AND session_id = ? AND branch_id IS NULL').get(aroundMessageId, sessionId)
  if (!inSession) throw new MessageNotInSessionError(sessionId, aroundMessageId)
  const size = clampWindow(window)
  const messages = windowAround(db, sessionId, aroundMessageId, size)
  const first = messages[0].id
  const last = messages[messages.length - 1].id
  const exists = db.prepare('SELECT 1 FROM messages WHERE session_id = ? AND branch_id IS NULL AND id < ? LIMIT 1')
  const existsAfter = db.prepare('SELECT 1 FROM messages WHERE session_id = ? AND branch_id IS NULL AND id > ? LIMIT 1')
  return {
    ...header,
    aroundMessageId,
    messages,
    moreBefore: !!exists.get(sessionId, first),
    moreAfter: !!existsAfter.get(sessionId, last)
  }
}

/** The whole session, or its first 20 and last 10 messages when it is longer. */
export function readSession(db: StateDb, sessionId: string): ReadResult {
  const header = sessionHeader(db, sessionId)
  const total = (db.prepare('SELECT count(*) AS n FROM messages WHERE session_id = ? AND branch_id IS NULL').get(sessionId) as { n: number }).n
  const head = db
    .prepare('SELECT * FROM messages WHERE session_id = ? AND branch_id IS NULL ORDER BY id LIMIT ?')
    .all(sessionId, total > READ_HEAD + READ_TAIL ? READ_HEAD : total) as MessageRow[]
  const tail =
    total > READ_HEAD + READ_TAIL
      ? (db.prepare('SELECT * FROM messages WHERE session_id = ? AND branch_id IS NULL ORDER BY id DESC LIMIT ?').all(sessionId, READ_TAIL) as MessageRow[]).reverse()
      : []
  const omitted = total - head.length - tail.length
  return { ...header, messages: [...head, ...tail].map((row) => toView(row)), truncated: omitted > 0, omitted }
}

/** Sessions by last activity, newest first, skipping the current one unless asked. */
export function recentSessions(
  db: StateDb,
  options: { limit?: number; currentSessionId?: string | null; includeCurrent?: boolean } = {}
): RecentSession[] {
  const limit = Math.min(10, Math.max(1, Math.trunc(options.limit ?? 5) || 5))
  const exclude = options.includeCurrent ? null : (options.currentSessionId ?? null)
  const rows = db
    .prepare(
      `SELECT * FROM sessions WHERE (@exclude IS NULL OR id <> @exclude)
       ORDER BY updated_at DESC, id DESC LIMIT @limit`
    )
    .all({ exclude, limit }) as SessionRow[]
  const opening = db.prepare(
    `SELECT content FROM messages WHERE session_id = ? AND branch_id IS NULL AND role = 'user' AND content IS NOT NULL ORDER BY id LIMIT 1`
  )
  return rows.map((row) => ({
    ...headerOf(row),
    preview: cutMiddle(((opening.get(row.id) as { content: string } | undefined)?.content ?? '').trim(), 200)
  }))
}

function sessionHeader(db: StateDb, sessionId: string): SessionHeader {
  const row = db.prepare('SELECT * FROM sessions WHERE id = ?').get(sessionId) as SessionRow | undefined
  if (!row) throw new SessionNotFoundError(sessionId)
  return headerOf(row)
}

function headerOf(row: SessionRow): SessionHeader {
  return {
    sessionId: row.id,
    title: row.title,
    source: row.source,
    startedAt: row.started_at,
    updatedAt: row.updated_at,
    messageCount: row.message_count
  }
}

function clampWindow(window: number): number {
  if (!Number.isFinite(window)) return DEFAULT_SCROLL_WINDOW
  return Math.min(MAX_SCROLL_WINDOW, Math.max(1, Math.trunc(window)))
}

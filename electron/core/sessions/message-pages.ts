import type { StateDb } from '../db/state-db'
import { toMessage, type MessageRow } from './session-rows'
import type { MessageRecord } from './types'

/**
 * Pages of a conversation's shown path (no branch; compacted messages included, as the chat shows
 * them folded), so a conversation of thousands of messages is read a page at a time. Each query
 * reads only its page through the `(session_id, id)` index.
 */
export interface MessagePage {
  /** In id order. */
  messages: MessageRecord[]
  /** Shown messages exist before the first one / after the last one of the page. */
  hasOlder: boolean
  hasNewer: boolean
}

export const DEFAULT_PAGE_SIZE = 100
export const MAX_PAGE_SIZE = 500

const SHOWN = 'session_id = ? AND branch_id IS NULL'

/** The last `limit` messages. */
export function lastPage(db: StateDb, sessionId: string, limit: number): MessagePage {
  const rows = newestFirst(db, sessionId, Number.MAX_SAFE_INTEGER, limit)
  return page(db, sessionId, rows)
}

/** The `limit` messages just before `beforeId` (which need not be on the path). */
export function pageBefore(db: StateDb, sessionId: string, beforeId: number, limit: number): MessagePage {
  const rows = newestFirst(db, sessionId, beforeId, limit)
  return page(db, sessionId, rows, { below: beforeId, above: beforeId - 1 })
}

/** The `limit` messages just after `afterId`. */
export function pageAfter(db: StateDb, sessionId: string, afterId: number, limit: number): MessagePage {
  const rows = oldestFirst(db, sessionId, afterId, limit)
  return page(db, sessionId, rows, { below: afterId + 1, above: afterId })
}

/**
 * `limit` messages centred on `messageId` (a search hit), filled from the other side near either
 * end; null when that message is not on the conversation's shown path.
 */
export function pageAround(db: StateDb, sessionId: string, messageId: number, limit: number): MessagePage | null {
  const anchor = db.prepare(`SELECT * FROM messages WHERE id = ? AND ${SHOWN}`).get(messageId, sessionId) as MessageRow | undefined
  if (!anchor) return null
  const others = Math.max(0, limit - 1)
  const older = newestFirst(db, sessionId, messageId, others)
  const newer = oldestFirst(db, sessionId, messageId, others)
  const olderTake = Math.min(older.length, Math.max(Math.floor(others / 2), others - newer.length))
  const newerTake = Math.min(newer.length, others - olderTake)
  return page(db, sessionId, [...older.slice(older.length - olderTake), anchor, ...newer.slice(0, newerTake)])
}

/** Rows with id < `beforeId`, the newest `limit` of them, returned in id order. */
function newestFirst(db: StateDb, sessionId: string, beforeId: number, limit: number): MessageRow[] {
  if (limit <= 0) return []
  const rows = db.prepare(`SELECT * FROM messages WHERE ${SHOWN} AND id < ? ORDER BY id DESC LIMIT ?`).all(sessionId, beforeId, limit) as MessageRow[]
  return rows.reverse()
}

function oldestFirst(db: StateDb, sessionId: string, afterId: number, limit: number): MessageRow[] {
  if (limit <= 0) return []
  return db.prepare(`SELECT * FROM messages WHERE ${SHOWN} AND id > ? ORDER BY id LIMIT ?`).all(sessionId, afterId, limit) as MessageRow[]
}

/** `empty`: where an empty page stands, to tell whether anything lies on either side of it. */
function page(db: StateDb, sessionId: string, rows: MessageRow[], empty = { below: 0, above: Number.MAX_SAFE_INTEGER }): MessagePage {
  const below = rows.length ? rows[0].id : empty.below
  const above = rows.length ? rows[rows.length - 1].id : empty.above
  const exists = (comparison: '<' | '>', id: number) =>
    db.prepare(`SELECT 1 FROM messages WHERE ${SHOWN} AND id ${comparison} ? LIMIT 1`).get(sessionId, id) !== undefined
  return { messages: rows.map(toMessage), hasOlder: exists('<', below), hasNewer: exists('>', above) }
}

import { KeyedError } from '../../../shared/keyed-error'
import type { StateDb } from '../db/state-db'
import { toSession, type SessionRow } from './session-rows'
import type { ListSessionsOptions, SessionPage, SessionRecord } from './types'

export class InvalidCursorError extends KeyedError<'list.cursor_malformed'> {
  constructor() {
    super('list.cursor_malformed', {})
    this.name = 'InvalidCursorError'
  }
}

/** The keys of the last row a page showed: the next page starts strictly after them. */
interface CursorKeys {
  pinned: 0 | 1
  updatedAt: number
  id: string
}

/** Opaque to callers: base64url of the last row's sort keys. */
export function sessionCursor(session: Pick<SessionRecord, 'pinned' | 'updatedAt' | 'id'>): string {
  return Buffer.from(JSON.stringify([session.pinned ? 1 : 0, session.updatedAt, session.id])).toString('base64url')
}

function readCursor(cursor: string): CursorKeys {
  let keys: unknown
  try {
    keys = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'))
  } catch {
    throw new InvalidCursorError()
  }
  if (!Array.isArray(keys) || keys.length !== 3) throw new InvalidCursorError()
  const [pinned, updatedAt, id] = keys as unknown[]
  if ((pinned !== 0 && pinned !== 1) || !Number.isSafeInteger(updatedAt) || typeof id !== 'string' || !id) throw new InvalidCursorError()
  return { pinned, updatedAt: updatedAt as number, id }
}

/**
 * Keyset paging: a page reads only its own rows (through `sessions_list` or `sessions_activity`,
 * migration 11) however deep it is, and a row that moves between two page loads is neither skipped
 * nor shown twice within the pages read after it moved.
 */
export function listSessions(db: StateDb, options: ListSessionsOptions, limit: number): SessionPage {
  const where: string[] = []
  const params: Array<string | number> = []
  if (options.archived !== undefined) {
    where.push('archived = ?')
    params.push(options.archived ? 1 : 0)
  }
  if (options.source !== undefined) {
    where.push('source = ?')
    params.push(options.source)
  }
  const after = options.cursor === undefined ? null : readCursor(options.cursor)
  if (after && options.pinnedFirst) {
    where.push('(pinned, updated_at, id) < (?, ?, ?)')
    params.push(after.pinned, after.updatedAt, after.id)
  } else if (after) {
    where.push('(updated_at, id) < (?, ?)')
    params.push(after.updatedAt, after.id)
  }
  const order = options.pinnedFirst ? 'pinned DESC, updated_at DESC, id DESC' : 'updated_at DESC, id DESC'
  const sql = `SELECT * FROM sessions ${where.length ? `WHERE ${where.join(' AND ')}` : ''} ORDER BY ${order} LIMIT ?`
  // One row more than asked says whether another page follows, without counting.
  const rows = db.prepare(sql).all(...params, limit + 1) as SessionRow[]
  const sessions = rows.slice(0, limit).map(toSession)
  const last = sessions.at(-1)
  return { sessions, nextCursor: rows.length > limit && last ? sessionCursor(last) : null }
}

import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { openStateDb, type StateDb } from '../../../electron/core/db/state-db'
import { InvalidCursorError, SessionStore, sessionCursor, type SessionRecord } from '../../../electron/core/sessions'

const COUNT = 10_000
const START = Date.UTC(2026, 0, 1)

let dir: string
let db: StateDb
let store: SessionStore

/** 10,000 conversations as an import brings them: one transaction, many sharing a timestamp (ties break by id). */
function seed(): void {
  const insert = db.prepare(`INSERT INTO sessions (id, title, source, started_at, updated_at, state, pinned, archived) VALUES (?, ?, 'import', ?, ?, '{}', ?, ?)`)
  db.transaction(() => {
    for (let i = 0; i < COUNT; i++) {
      const at = START + Math.floor(i / 3) * 60_000
      insert.run(`s${String(i).padStart(5, '0')}`, `Conversation ${i}`, at, at, i % 1000 === 7 ? 1 : 0, i % 10 === 3 ? 1 : 0)
    }
  })()
}

function everyPage(options: { archived?: boolean; limit: number }): { pages: SessionRecord[][]; ids: string[] } {
  const pages: SessionRecord[][] = []
  let cursor: string | undefined
  do {
    const page = store.listPage({ ...options, cursor, pinnedFirst: true })
    pages.push(page.sessions)
    cursor = page.nextCursor ?? undefined
  } while (cursor)
  return { pages, ids: pages.flat().map((s) => s.id) }
}

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'cairn-list-pages-'))
  db = openStateDb(join(dir, 'state.db'))
  store = new SessionStore(db)
  seed()
})

afterAll(() => {
  db.close()
  rmSync(dir, { recursive: true, force: true })
})

describe('the conversations list in pages', () => {
  it('shows every conversation exactly once across pages, pinned first, then newest activity first', () => {
    const { pages, ids } = everyPage({ archived: false, limit: 500 })
    expect(pages).toHaveLength(18) // 9,000 not archived, in pages of 500
    expect(pages.every((page) => page.length === 500)).toBe(true)
    expect(new Set(ids).size).toBe(9000)
    const all = pages.flat()
    expect(all.every((s) => !s.archived)).toBe(true)
    const firstUnpinned = all.findIndex((s) => !s.pinned)
    expect(firstUnpinned).toBe(10)
    expect(all.slice(firstUnpinned).some((s) => s.pinned)).toBe(false)
    const sortKey = (s: SessionRecord) => [s.pinned ? 1 : 0, s.updatedAt, s.id] as const
    for (let i = 1; i < all.length; i++) {
      const [a, b] = [sortKey(all[i - 1]), sortKey(all[i])]
      expect(a[0] > b[0] || (a[0] === b[0] && (a[1] > b[1] || (a[1] === b[1] && a[2] > b[2])))).toBe(true)
    }
  })

  it('lists archived conversations on their own, paged the same way', () => {
    const { ids } = everyPage({ archived: true, limit: 333 })
    expect(ids).toHaveLength(1000)
    expect(new Set(ids).size).toBe(1000)
    expect(ids.every((id) => Number(id.slice(1)) % 10 === 3)).toBe(true)
  })

  it('moves a conversation with new activity to the front of the first page', () => {
    const quiet = 's00042'
    expect(store.listPage({ archived: false, limit: 100, pinnedFirst: true }).sessions.some((s) => s.id === quiet)).toBe(false)
    store.append(quiet, { role: 'user', content: 'back to this one', createdAt: START + 10 * 365 * 86_400_000 })
    const first = store.listPage({ archived: false, limit: 100, pinnedFirst: true }).sessions
    expect(first.findIndex((s) => s.id === quiet)).toBe(10) // right after the 10 pinned ones
    expect(everyPage({ archived: false, limit: 500 }).ids.filter((id) => id === quiet)).toHaveLength(1)
  })

  it('reads only the rows of the page, through an index in the list order, however deep the page is', () => {
    const middle = everyPage({ archived: false, limit: 4500 }).pages[0].at(-1)!
    const deep = store.listPage({ archived: false, limit: 100, pinnedFirst: true, cursor: sessionCursor(middle) })
    expect(deep.sessions).toHaveLength(100)
    expect(deep.sessions[0].updatedAt).toBeLessThanOrEqual(middle.updatedAt)
    const plan = (sql: string, ...params: unknown[]) =>
      (db.prepare(`EXPLAIN QUERY PLAN ${sql}`).all(...params) as Array<{ detail: string }>).map((row) => row.detail).join(' | ')
    const listPlan = plan(
      'SELECT * FROM sessions WHERE archived = ? AND (pinned, updated_at, id) < (?, ?, ?) ORDER BY pinned DESC, updated_at DESC, id DESC LIMIT ?',
      0, 0, START, 's05000', 101
    )
    expect(listPlan).toContain('USING INDEX sessions_list (archived=? AND (pinned,updated_at,id)<(?,?,?))')
    expect(listPlan).not.toContain('TEMP B-TREE')
    const activityPlan = plan('SELECT * FROM sessions WHERE (updated_at, id) < (?, ?) ORDER BY updated_at DESC, id DESC LIMIT ?', START, 's05000', 101)
    expect(activityPlan).toContain('USING INDEX sessions_activity')
    expect(activityPlan).not.toContain('TEMP B-TREE')
  })

  it('keeps the most recent activity first for callers that ask for no list order (pinned ones among the rest)', () => {
    const recent = store.list({ limit: 3 })
    expect(recent[0].id).toBe('s00042')
    expect(store.latest()?.id).toBe('s00042')
    const second = store.listPage({ limit: 2, cursor: store.listPage({ limit: 1 }).nextCursor! }).sessions
    expect(second.map((s) => s.id)).toEqual(recent.slice(1).map((s) => s.id))
  })

  it('refuses a malformed cursor with a clear error', () => {
    for (const cursor of ['not a cursor', Buffer.from('[1,2]').toString('base64url'), Buffer.from('[2,1,"x"]').toString('base64url'), Buffer.from('{"a":1}').toString('base64url')]) {
      expect(() => store.listPage({ cursor, pinnedFirst: true })).toThrow(InvalidCursorError)
    }
    expect(() => store.listPage({ cursor: 'garbage' })).toThrow(/cursor is malformed.*nextCursor of the previous page/)
  })
})

import Database from 'better-sqlite3'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { openStateDb, migrate, type StateDb } from '../../../electron/core/db/state-db'
import { migrations } from '../../../electron/core/db/migrations'
import { segmentBacklog } from '../../../electron/core/db/segment-backlog'
import { SessionStore, searchSessions } from '../../../electron/core/sessions'
import { anyAt, cjkQueries, seedCjkConversations } from '../../fixtures/cjk-search/load'

let db: StateDb
let store: SessionStore

beforeEach(() => {
  db = openStateDb(':memory:')
  store = new SessionStore(db)
})

afterEach(() => db.close())

const found = (query: string, limit = 3): string[] => searchSessions(db, query, { limit, includeCurrent: true }).sessions.map((s) => s.sessionId)

describe('Chinese and Japanese search on the mixed-language set', () => {
  beforeEach(() => seedCjkConversations(store))

  it('finds what each query should (bench:cjk shipping: any@1 1.0, any@3 1.0; before segmentation 0.79 / 0.83)', () => {
    const results = cjkQueries().map((q) => ({ ...q, found: found(q.query) }))
    const missed = results.filter((r) => !anyAt(1, [r])).map((r) => r.query)
    expect(missed).toEqual([])
    expect(anyAt(3, results)).toBe(1)
  })

  it('ranks the word above a message that merely contains its characters (和服 in 数据库和服务器)', () => {
    expect(found('和服')[0]).toBe('c05')
    expect(found('人参')[0]).toBe('c07')
    expect(found('京都')[0]).toBe('c08')
    expect(found('海上')[0]).toBe('c11')
  })

  it('finds words the message keeps apart (部署的时候失败了 for 部署失败)', () => {
    expect(found('部署失败')[0]).toBe('c01')
    expect(found('合并冲突')[0]).toBe('c24')
  })

  it('marks the segmented word and the emoji in the snippet', () => {
    expect(searchSessions(db, '部署失败', { includeCurrent: true }).sessions[0].snippet).toContain('>>>部署<<<')
    expect(searchSessions(db, '🎉', { includeCurrent: true }).sessions[0].snippet).toContain('>>>🎉<<<')
  })

  it('finds emoji, and fullwidth letters either way round', () => {
    expect(found('🎉')).toEqual(['c20'])
    expect(found('🚀')).toEqual(['c19'])
    expect(found('ＡＰＩ')).toEqual(expect.arrayContaining(['c17', 'c18']))
    expect(found('SQL 慢')).toEqual(expect.arrayContaining(['c37', 'c38']))
  })
})

describe('migration 14', () => {
  it('leaves messages written before it to the background pass, which makes their words searchable', async () => {
    const old = new Database(':memory:')
    try {
      for (const m of migrations.filter((m) => m.version < 14)) old.exec(m.sql)
      old.pragma('user_version = 13')
      old.prepare("INSERT INTO sessions (id, started_at, updated_at) VALUES ('old', 1, 1)").run()
      const insert = old.prepare("INSERT INTO messages (session_id, role, content, created_at) VALUES ('old', 'user', ?, 1)")
      insert.run('上周部署到服务器的时候失败了')
      insert.run('Party 🎉 on Friday')
      migrate(old)
      expect(searchSessions(old, '🎉', { includeCurrent: true }).sessions).toEqual([])
      await segmentBacklog(old)
      expect(searchSessions(old, '部署失败', { includeCurrent: true }).sessions.map((s) => s.sessionId)).toEqual(['old'])
      expect(searchSessions(old, '🎉', { includeCurrent: true }).sessions.map((s) => s.sessionId)).toEqual(['old'])
      old.exec("INSERT INTO messages_trigram (messages_trigram) VALUES ('integrity-check')")
    } finally {
      old.close()
    }
  })

  it('keeps the index in step when a message is edited or deleted', () => {
    store.create({ id: 's' })
    const [message] = store.appendMany('s', [{ role: 'user', content: '明天部署新版本' }])
    expect(found('部署')).toEqual(['s'])
    db.prepare('UPDATE messages SET content = ? WHERE id = ?').run('明天发布新版本', message.id)
    expect(found('部署')).toEqual([])
    expect(found('发布')).toEqual(['s'])
    db.prepare('DELETE FROM messages WHERE id = ?').run(message.id)
    expect(found('发布')).toEqual([])
  })
})

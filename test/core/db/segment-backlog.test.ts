import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import Database from 'better-sqlite3'
import { afterEach, describe, expect, it } from 'vitest'
import { WORD_MARK } from '../../../electron/core/db/cjk-segment'
import { segmentBacklog, segmentProgress, type SegmentProgress } from '../../../electron/core/db/segment-backlog'
import { rebuildSearchIndexes, salvageInto } from '../../../electron/core/db/salvage'
import { openStateDb, type StateDb } from '../../../electron/core/db/state-db'
import { SessionStore, searchSessions } from '../../../electron/core/sessions'
import { BACKLOG, writeSchema13 } from './schema-13-history'

const dirs: string[] = []
const open: StateDb[] = []
afterEach(() => {
  for (const db of open.splice(0).reverse()) db.close()
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true })
})

/** A state.db file at schema 13 holding the history of schema-13-history.ts. */
function schema13File(): string {
  const dir = mkdtempSync(join(tmpdir(), 'cairn-segment-'))
  dirs.push(dir)
  const path = join(dir, 'state.db')
  writeSchema13(path)
  return path
}

function openDb(path: string): StateDb {
  const db = openStateDb(path)
  open.push(db)
  return db
}

const segmentedCount = (db: StateDb): number => db.prepare('SELECT count(*) FROM messages WHERE segmented IS NOT NULL').pluck().get() as number
/** Sessions whose trigram row holds `word` as a whole segmented word (not merely its characters). */
const holdingWord = (db: StateDb, word: string): string[] =>
  (
    db
      .prepare('SELECT m.session_id FROM messages_trigram t JOIN messages m ON m.id = t.rowid WHERE messages_trigram MATCH ? ORDER BY m.id')
      .pluck()
      .all(`"${WORD_MARK}${word}${WORD_MARK}"`) as string[]
  )
const found = (db: StateDb, query: string): string[] => searchSessions(db, query, { limit: 3, includeCurrent: true }).sessions.map((s) => s.sessionId)

describe('migration 14 on a history from before it', () => {
  it('only changes the schema: nothing is segmented at start-up, the backlog is counted, substrings are still found', () => {
    const db = openDb(schema13File())
    expect(db.pragma('user_version', { simple: true })).toBeGreaterThanOrEqual(14)
    expect(segmentedCount(db)).toBe(0)
    expect(segmentProgress(db)).toEqual({ done: 0, total: BACKLOG })
    expect(holdingWord(db, '和服')).toEqual([])
    // Three characters or more: the trigram substring index finds it as before.
    expect(found(db, '服务器')).toEqual(expect.arrayContaining(['servers', 'deploy']))
  })

  it('has no backlog on a new database', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'cairn-segment-'))
    dirs.push(dir)
    const db = openDb(join(dir, 'state.db'))
    new SessionStore(db).create({ id: 'new' })
    new SessionStore(db).appendMany('new', [{ role: 'user', content: '明天部署' }])
    expect(segmentProgress(db)).toBeNull()
    expect(await segmentBacklog(db)).toEqual({ status: 'done', segmented: 0, progress: { done: 0, total: 0 } })
  })
})

describe('segmentBacklog (the background pass)', () => {
  it('makes a two-character word findable as a word, and ranks it above the same characters inside other words', async () => {
    const db = openDb(schema13File())
    const outcome = await segmentBacklog(db)
    expect(outcome.status).toBe('done')
    expect(holdingWord(db, '和服')).toEqual(['kimono'])
    expect(found(db, '和服')[0]).toBe('kimono')
    expect(found(db, '部署失败')).toEqual(['deploy'])
    expect(found(db, '🎉')).toEqual(['party'])
    expect(segmentProgress(db)).toBeNull()
    db.exec("INSERT INTO messages_trigram (messages_trigram) VALUES ('integrity-check')")
  })

  it('counts progress that adds up: each batch moves it on, and the end is the whole backlog', async () => {
    const db = openDb(schema13File())
    const seen: SegmentProgress[] = []
    const outcome = await segmentBacklog(db, { batchSize: 2, onProgress: (p) => seen.push(p) })
    expect(seen.map((p) => p.done)).toEqual([2, 4, 6, BACKLOG])
    expect(seen.every((p) => p.total === BACKLOG)).toBe(true)
    expect(outcome).toEqual({ status: 'done', segmented: BACKLOG - 1, progress: { done: BACKLOG, total: BACKLOG } })
    expect(segmentedCount(db)).toBe(BACKLOG - 1)
  })

  it('stops when cancelled, keeps the batches done, and the next pass (after a restart) resumes there', async () => {
    const path = schema13File()
    const first = openDb(path)
    const stop = new AbortController()
    const cancelled = await segmentBacklog(first, { batchSize: 2, signal: stop.signal, onProgress: () => stop.abort() })
    expect(cancelled).toMatchObject({ status: 'cancelled', progress: { done: 2, total: BACKLOG } })
    expect(holdingWord(first, '和服')).toEqual(['kimono'])
    expect(holdingWord(first, '部署')).toEqual([])
    first.close()
    open.splice(open.indexOf(first), 1)

    const again = openDb(path)
    expect(segmentProgress(again)).toEqual({ done: 2, total: BACKLOG })
    const seen: number[] = []
    const resumed = await segmentBacklog(again, { batchSize: 2, onProgress: (p) => seen.push(p.done) })
    expect(seen[0]).toBe(4)
    expect(resumed).toMatchObject({ status: 'done', progress: { done: BACKLOG, total: BACKLOG } })
    expect(holdingWord(again, '部署')).toEqual(['deploy'])
    expect(segmentedCount(again)).toBe(BACKLOG - 1)
  })

  it('pauses when asked to (a chat started) and leaves the rest for later', async () => {
    const db = openDb(schema13File())
    let batches = 0
    const paused = await segmentBacklog(db, { batchSize: 3, keepGoing: () => batches < 1, onProgress: () => batches++ })
    expect(paused).toMatchObject({ status: 'paused', progress: { done: 3, total: BACKLOG } })
    expect(segmentProgress(db)).toEqual({ done: 3, total: BACKLOG })
  })

  it('never overwrites a message written or edited during the pass, and segments an edited one by its new text', async () => {
    const path = schema13File()
    const db = openDb(path)
    // Another process (the CLI, say) writes while the app's pass runs.
    const other = openDb(path)
    const ids = other.prepare('SELECT session_id, id FROM messages').all() as Array<{ session_id: string; id: number }>
    const idOf = (session: string): number => ids.find((row) => row.session_id === session)!.id
    const ownWords = `${WORD_MARK}人工${WORD_MARK}`
    let wrote = false
    const outcome = await segmentBacklog(db, {
      batchSize: 2,
      onProgress: () => {
        if (wrote) return
        wrote = true
        const store = new SessionStore(other)
        store.create({ id: 'during' })
        store.appendMany('during', [{ role: 'user', content: '今天部署新版本' }])
        other.prepare('UPDATE messages SET segmented = ? WHERE id = ?').run(ownWords, idOf('ml'))
        other.prepare('UPDATE messages SET content = ? WHERE id = ?').run('合并请求已经批准', idOf('merge'))
      }
    })
    expect(outcome.status).toBe('done')
    expect(db.prepare('SELECT segmented FROM messages WHERE id = ?').pluck().get(idOf('ml'))).toBe(ownWords)
    expect(holdingWord(db, '批准')).toEqual(['merge'])
    expect(holdingWord(db, '冲突')).toEqual([])
    expect(holdingWord(db, '部署')).toEqual(['deploy', 'during'])
  })
})

describe('batches', () => {
  it('end early when their text is long, so one batch of long tool output never holds the write lock for long', async () => {
    const path = schema13File()
    const raw = new Database(path)
    const long = raw.prepare("INSERT INTO messages (session_id, role, content, created_at) VALUES ('kimono', 'tool', ?, 99)")
    for (let i = 0; i < 3; i++) long.run('部署日志'.repeat(30_000))
    raw.close()
    const db = openDb(path)
    const steps: SegmentProgress[] = []
    const outcome = await segmentBacklog(db, { onProgress: (p) => steps.push(p) })
    expect(outcome.status).toBe('done')
    // 8 short messages and 3 of 120,000 characters: the limit of 100 messages alone would make it one batch.
    expect(steps.length).toBe(2)
    expect(steps.at(-1)).toEqual({ done: BACKLOG + 3, total: BACKLOG + 3 })
    expect(holdingWord(db, '和服')).toEqual(['kimono'])
  })
})

describe('a salvaged database', () => {
  it('queues the copied messages still waiting for their words, so the pass still reaches them', async () => {
    const damaged = schema13File()
    openDb(damaged).close()
    const dir = mkdtempSync(join(tmpdir(), 'cairn-segment-salvage-'))
    dirs.push(dir)
    const fresh = openDb(join(dir, 'state.db'))
    salvageInto(damaged, fresh)
    rebuildSearchIndexes(fresh)
    expect(segmentProgress(fresh)).toEqual({ done: 0, total: BACKLOG })
    expect((await segmentBacklog(fresh)).status).toBe('done')
    expect(holdingWord(fresh, '和服')).toEqual(['kimono'])
  })
})

import { copyFileSync, mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import Database from 'better-sqlite3'
import { afterEach, describe, expect, it } from 'vitest'
import { CairnCore } from '../../../electron/core/cairn'
import { rebuildSearchIndexes, salvageInto, type SalvageReport } from '../../../electron/core/db/salvage'
import { openStateDb, type StateDb } from '../../../electron/core/db/state-db'
import { searchSessions, SessionStore } from '../../../electron/core/sessions'
import { cellsOn, MARKER, overwritePages, pagesOf, seedHome, truncateDb } from './damaged-home'

const dirs: string[] = []
const open: StateDb[] = []
afterEach(() => {
  for (const db of open.splice(0)) if (db.open) db.close()
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true })
})

async function seeded(sessions = 120) {
  const home = await seedHome(sessions)
  dirs.push(home.home)
  return home
}

function salvage(damaged: string): { fresh: StateDb; report: SalvageReport; saved: (table: string) => number } {
  const dir = mkdtempSync(join(tmpdir(), 'cairn-salvage-'))
  dirs.push(dir)
  const fresh = openStateDb(join(dir, 'state.db'))
  open.push(fresh)
  const report = salvageInto(damaged, fresh)
  rebuildSearchIndexes(fresh)
  return { fresh, report, saved: (table) => report.tables.find((t) => t.table === table)!.saved }
}

function expectSound(db: StateDb): void {
  expect(db.pragma('integrity_check')).toEqual([{ integrity_check: 'ok' }])
  expect(db.pragma('foreign_key_check')).toEqual([])
  expect(db.prepare("INSERT INTO messages_fts (messages_fts) VALUES ('integrity-check')").run().changes).toBeGreaterThanOrEqual(0)
}

const count = (db: StateDb, table: string) => db.prepare(`SELECT count(*) FROM ${table}`).pluck().get() as number

describe('salvaging a damaged state.db into a fresh one', () => {
  it('a truncated file: saves the rows on the pages that are left, finds them again by search', async () => {
    const { stateDb, sessions, messages } = await seeded()
    // The schema takes the first ~50 pages of this small home: cut inside the data, not before it.
    truncateDb(stateDb, 0.75)
    const { fresh, report, saved } = salvage(stateDb)
    expect(report.sqliteError).toBeNull()
    expect(saved('messages')).toBeGreaterThan(0)
    expect(saved('messages')).toBeLessThan(messages)
    expect(saved('sessions')).toBeLessThanOrEqual(sessions)
    // Sessions whose pages were cut off come back as placeholders holding their surviving messages.
    expect(count(fresh, 'sessions')).toBeGreaterThan(0)
    expectSound(fresh)
    expect(searchSessions(fresh, MARKER).sessions.length).toBeGreaterThan(0)
    // Counters follow what was saved.
    const wrong = fresh.prepare('SELECT count(*) FROM sessions s WHERE message_count <> (SELECT count(*) FROM messages m WHERE m.session_id = s.id)').pluck().get()
    expect(wrong).toBe(0)
  })

  it('schema and root pages overwritten (pages 3 to 22): SQLite cannot open it, the rows come back from the raw pages', async () => {
    const { home, stateDb, sessions, messages } = await seeded()
    // A long tool output (on overflow pages) and Chinese text (in the trigram index) must come back too.
    const core = await CairnCore.open({ home })
    const extra = core.sessions.create({ title: 'long one' })
    const long = `${'log line with details '.repeat(1500)}end of the long output`
    core.sessions.appendMany(extra.id, [
      { role: 'tool', content: long, toolName: 'run_command', toolCallId: 'call_1' },
      { role: 'user', content: '上次的构建失败是怎么修好的？' }
    ])
    await core.close()
    // A data page can sit among the schema's (a dropped index's page is reused): its rows are lost with it.
    const hit = (table: string) => pagesOf(stateDb, table, 'leaf').filter((page) => page >= 3 && page < 23)
    const lostMessages = cellsOn(stateDb, 'messages', hit('messages'))
    const lostSessions = cellsOn(stateDb, 'sessions', hit('sessions'))
    overwritePages(stateDb, 3, 20)
    const { fresh, report, saved } = salvage(stateDb)
    expect(report.sqliteError).toMatch(/malformed/)
    expect(report.pagesScanned).toBe(true)
    expect(saved('sessions')).toBe(sessions + 1 - lostSessions)
    expect(saved('messages')).toBe(messages + 2 - lostMessages)
    expect(lostMessages).toBeLessThan(messages / 10)
    expectSound(fresh)
    expect(searchSessions(fresh, MARKER, { limit: 10 }).sessions.length).toBeGreaterThan(0)
    expect(fresh.prepare("SELECT content FROM messages WHERE tool_name = 'run_command'").pluck().get()).toBe(long)
    expect(searchSessions(fresh, '构建失败').sessions.map((hit) => hit.sessionId)).toEqual([extra.id])
  })

  it('keeps versions and attached files: a stored version stays off the shown path, attachment text stays searchable', async () => {
    const { home, stateDb } = await seeded(20)
    const core = await CairnCore.open({ home })
    const talk = core.sessions.create({ title: 'versions' })
    const [question] = core.sessions.appendMany(talk.id, [{ role: 'user', content: 'pick a colour' }, { role: 'assistant', content: 'blue' }])
    core.sessions.forkAfter(talk.id, question.id)
    core.sessions.append(talk.id, { role: 'assistant', content: 'green' })
    const withFile = core.sessions.append(talk.id, { role: 'user', content: 'see the file' })
    core.attachments.index(withFile.id, [{ meta: { name: 'notes.txt', kind: 'text', mime: 'text/plain', size: 9, path: 'attachments/x/y.txt' }, text: 'zebrafinch notes' }])
    await core.close()
    const sessionLeaves = pagesOf(stateDb, 'sessions', 'leaf')
    overwritePages(stateDb, sessionLeaves[0], 1)
    const { fresh } = salvage(stateDb)
    expectSound(fresh)
    const store = new SessionStore(fresh)
    expect(store.messages(talk.id).map((m) => m.content)).toEqual(['pick a colour', 'green', 'see the file'])
    expect(store.versions(talk.id).map((group) => group.branches.length)).toEqual([2])
    expect(searchSessions(fresh, 'zebrafinch').sessions.map((hit) => hit.sessionId)).toEqual([talk.id])
  })

  it('a few pages in the middle of the messages: loses exactly the rows on them, skips over the hole, keeps the rest', async () => {
    const { stateDb, messages } = await seeded()
    const leaves = pagesOf(stateDb, 'messages', 'leaf')
    const hit = leaves.slice(Math.floor(leaves.length / 3), Math.floor(leaves.length / 3) + 3)
    const onThem = cellsOn(stateDb, 'messages', hit)
    for (const page of hit) overwritePages(stateDb, page, 1)
    const { fresh, report, saved } = salvage(stateDb)
    const table = report.tables.find((t) => t.table === 'messages')!
    expect(table.unreadable).toBeGreaterThan(0)
    expect(onThem).toBeGreaterThan(0)
    expect(saved('messages')).toBe(messages - onThem)
    expect(saved('sessions')).toBe(120)
    expectSound(fresh)
  })

  it('a message whose session was lost keeps its text, under a "Recovered conversation"', async () => {
    const { stateDb, messages } = await seeded()
    const sessionLeaves = pagesOf(stateDb, 'sessions', 'leaf')
    overwritePages(stateDb, sessionLeaves[0], 1)
    const { fresh, saved } = salvage(stateDb)
    expect(saved('messages')).toBe(messages)
    const recovered = fresh.prepare("SELECT count(*) FROM sessions WHERE title = 'Recovered conversation' AND source = 'recovered'").pluck().get() as number
    expect(recovered).toBeGreaterThan(0)
    expect(count(fresh, 'sessions')).toBe(120)
    expectSound(fresh)
  })

  it('reads the write-ahead log too: rows committed only to the log survive damage to the main file', async () => {
    const { home, stateDb } = await seeded(30)
    // A process that wrote and then died: its last transaction is only in state.db-wal.
    const writer = new Database(stateDb)
    writer.pragma('wal_autocheckpoint = 0')
    writer.prepare("INSERT INTO sessions (id, title, source, started_at, updated_at, state) VALUES ('late', 'late one', 'cli', 1, 1, '{}')").run()
    writer.prepare("INSERT INTO messages (session_id, role, content, created_at) VALUES ('late', 'user', 'only in the log: walrusoctopus', 2)").run()
    const copy = join(home, 'copy.db')
    copyFileSync(stateDb, copy)
    copyFileSync(`${stateDb}-wal`, `${copy}-wal`)
    writer.close()
    overwritePages(copy, 3, 20)
    const { fresh } = salvage(copy)
    expect(fresh.prepare("SELECT content FROM messages WHERE session_id = 'late'").pluck().get()).toBe('only in the log: walrusoctopus')
    expect(searchSessions(fresh, 'walrusoctopus').sessions.map((hit) => hit.sessionId)).toEqual(['late'])
  })

  it('an empty file or one that is not a database: nothing to save, and no invented rows', async () => {
    const { home } = await seeded(1)
    const empty = join(home, 'empty.db')
    copyFileSync('/dev/null', empty)
    const garbage = join(home, 'garbage.db')
    copyFileSync(join(home, 'state.db'), garbage)
    overwritePages(garbage, 1, 40)
    for (const path of [empty, garbage]) {
      const { fresh, report } = salvage(path)
      expect(report.sqliteError).not.toBeNull()
      expect(count(fresh, 'sessions') + count(fresh, 'messages') + count(fresh, 'ledger')).toBe(0)
    }
  })
})

import { spawn } from 'node:child_process'
import { createRequire } from 'node:module'
import { existsSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { pathToFileURL } from 'node:url'
import { afterEach, describe, expect, it } from 'vitest'
import { CairnCore } from '../../../electron/core/cairn'
import { CorruptDatabaseError, isCorruptionError, openStateDb } from '../../../electron/core/db/state-db'
import { bytesOf, overwritePages, pageCount, seedHome, truncateDb } from './damaged-home'

const dirs: string[] = []
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true })
})

async function seeded(sessions = 60) {
  const home = await seedHome(sessions)
  dirs.push(home.home)
  return home
}

/** Opens and expects a CorruptDatabaseError, and that the file was left byte for byte as it was. */
function expectRefused(path: string, code: string | RegExp): CorruptDatabaseError {
  const before = bytesOf(path)
  let caught: unknown
  try {
    openStateDb(path).close()
  } catch (error) {
    caught = error
  }
  expect(caught).toBeInstanceOf(CorruptDatabaseError)
  const error = caught as CorruptDatabaseError
  expect(error.path).toBe(path)
  expect(error.code).toMatch(code)
  expect(error.message).toContain('cairn doctor')
  expect(error.message).not.toContain('\n')
  expect(bytesOf(path).equals(before)).toBe(true)
  return error
}

describe('opening a damaged state.db', () => {
  it('refuses a file cut short, before SQLite reads a page of it, and says how much is left', async () => {
    const { stateDb } = await seeded()
    truncateDb(stateDb, 0.5)
    const error = expectRefused(stateDb, 'TRUNCATED')
    expect(error.detail).toMatch(/cut short: \d+ of \d+ bytes/)
  })

  it('refuses a file whose schema and root pages were overwritten with garbage (pages 3 to 22)', async () => {
    const { stateDb } = await seeded()
    overwritePages(stateDb, 3, 20)
    expectRefused(stateDb, /^SQLITE_CORRUPT/)
  })

  it('finds garbage on the last page of the file at open (the newest rows), not half-way through a command', async () => {
    const { stateDb } = await seeded()
    overwritePages(stateDb, pageCount(stateDb), 1)
    expectRefused(stateDb, /^SQLITE_CORRUPT/)
  })

  it('refuses a file that is not a database, and a header that lost its magic', async () => {
    const { home, stateDb } = await seeded()
    overwritePages(stateDb, 1, 1)
    expectRefused(stateDb, 'SQLITE_NOTADB')
    const text = join(home, 'other.db')
    writeFileSync(text, 'just some text, not SQLite\n')
    expectRefused(text, 'SQLITE_NOTADB')
  })

  it('never replaces a 0-byte state.db with an empty database: it refuses it and leaves it in place', async () => {
    const { home, stateDb } = await seeded()
    writeFileSync(stateDb, '')
    expectRefused(stateDb, 'EMPTY')
    await expect(CairnCore.open({ home })).rejects.toBeInstanceOf(CorruptDatabaseError)
    expect(statSync(stateDb).size).toBe(0)
  })

  it('creates a missing database whole: never a 0-byte file, no temporary left behind', async () => {
    const { home } = await seeded(1)
    const path = join(home, 'fresh.db')
    const db = openStateDb(path)
    expect(db.prepare("SELECT count(*) FROM sqlite_master WHERE name = 'messages'").pluck().get()).toBe(1)
    db.close()
    expect(statSync(path).size).toBeGreaterThan(0)
    expect(readdirSync(home).filter((name) => name.includes('.new-'))).toEqual([])
    // …and opens again as an ordinary database.
    openStateDb(path).close()
  })

  it('four processes creating the same database at once all open it, and it is created once', async () => {
    const { home } = await seeded(1)
    const path = join(home, 'race.db')
    const script = join(home, 'open.ts')
    const stateDbModule = join(__dirname, '../../../electron/core/db/state-db.ts')
    writeFileSync(
      script,
      `import { openStateDb } from ${JSON.stringify(stateDbModule)}\n` +
        `const db = openStateDb(${JSON.stringify(path)})\n` +
        `db.prepare("INSERT INTO skill_usage (name) VALUES (?)").run(String(process.pid))\n` +
        'db.close()\n'
    )
    const tsx = pathToFileURL(createRequire(__filename).resolve('tsx')).href
    const run = () =>
      new Promise<number | null>((resolve) => {
        const child = spawn(process.execPath, ['--import', tsx, script], { stdio: 'ignore' })
        child.on('close', resolve)
      })
    expect(await Promise.all([run(), run(), run(), run()])).toEqual([0, 0, 0, 0])
    const db = openStateDb(path)
    expect(db.prepare('SELECT count(*) FROM skill_usage').pluck().get()).toBe(4)
    db.close()
    expect(readdirSync(home).filter((name) => name.includes('.new-'))).toEqual([])
  }, 30_000)

  it('knows SQLite’s corruption codes from other failures', () => {
    expect(isCorruptionError(Object.assign(new Error('x'), { code: 'SQLITE_CORRUPT' }))).toBe(true)
    expect(isCorruptionError(Object.assign(new Error('x'), { code: 'SQLITE_CORRUPT_INDEX' }))).toBe(true)
    expect(isCorruptionError(Object.assign(new Error('x'), { code: 'SQLITE_NOTADB' }))).toBe(true)
    expect(isCorruptionError(Object.assign(new Error('x'), { code: 'SQLITE_BUSY' }))).toBe(false)
    expect(isCorruptionError(new Error('x'))).toBe(false)
  })

  it('opens a healthy database as before (the check reads a few pages, not the whole file)', async () => {
    const { stateDb } = await seeded()
    const db = openStateDb(stateDb)
    expect(db.prepare('SELECT count(*) FROM messages').pluck().get()).toBe(120)
    db.close()
    expect(existsSync(stateDb)).toBe(true)
  })
})

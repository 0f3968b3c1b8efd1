import Database from 'better-sqlite3'
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import type { LedgerEntry } from '../../../shared/ledger'
import { openStateDb, type StateDb } from '../../../electron/core/db/state-db'
import { ensureHome, type HomePaths } from '../../../electron/core/config/home'
import { Ledger } from '../../../electron/core/ledger/ledger'
import { revertLedgerEntry } from '../../../electron/core/ledger/revert'
import { MemoryStore, type MemoryCallContext, type MemoryResult } from '../../../electron/core/memory'

let home: string
let paths: HomePaths
let db: StateDb
let ledger: Ledger
let store: MemoryStore
let blocker: Database.Database | null
const ctx: MemoryCallContext = { write: { source: 'agent', sessionId: 's1' } }

beforeEach(() => {
  home = mkdtempSync(join(tmpdir(), 'cairn-'))
  paths = ensureHome(home)
  db = openStateDb(paths.stateDb)
  // The real timeout is 10 s; a short one keeps the "locked past its timeout" case quick.
  db.pragma('busy_timeout = 50')
  ledger = new Ledger(db)
  store = new MemoryStore({ dataHome: home, dir: paths.memoriesDir, memoryCharLimit: 500, userCharLimit: 300, recorder: ledger })
  blocker = null
})

afterEach(() => {
  blocker?.close()
  db.close()
  rmSync(home, { recursive: true, force: true })
})

/** Another process holding state.db's write lock, as a long review transaction or a stuck CLI would. */
function lockDatabase(): void {
  blocker = new Database(paths.stateDb)
  blocker.exec('BEGIN IMMEDIATE')
}

function unlockDatabase(): void {
  blocker?.exec('ROLLBACK')
}

/** Makes SQLite itself refuse one ledger row (by its `after` text), failing mid-transaction. */
function refuseRowWithAfter(text: string): void {
  db.prepare(
    `CREATE TRIGGER refuse_row BEFORE INSERT ON ledger WHEN NEW.after = '${text}' BEGIN SELECT RAISE(ABORT, 'disk I/O error'); END`
  ).run()
}

const rows = (): LedgerEntry[] => ledger.list({ limit: 1000 }).reverse()
const memoryText = () => readFileSync(paths.memoryFile, 'utf8')

function failedWith(result: MemoryResult): string {
  expect(result.success).toBe(false)
  return result.success ? '' : result.error
}

describe('a change the ledger cannot record is not made', () => {
  it('restores the file and says nothing changed when the database stays locked', async () => {
    await store.add('memory', 'fact A', ctx)
    lockDatabase()
    const error = failedWith(await store.add('memory', 'fact B', ctx))
    expect(error).toMatch(/^Nothing was changed: /)
    expect(error).toContain('MEMORY.md')
    expect(error).toContain('database is locked')
    expect(memoryText()).toBe('fact A')
    unlockDatabase()
    expect(rows().map((row) => row.after)).toEqual(['fact A'])

    // Once the lock is gone the same call goes through, file and row together.
    expect((await store.add('memory', 'fact B', ctx)).success).toBe(true)
    expect(memoryText()).toBe('fact A\n§\nfact B')
    expect(rows().map((row) => row.after)).toEqual(['fact A', 'fact B'])
  })

  it('leaves no file behind when the first write to a store cannot be recorded', async () => {
    lockDatabase()
    expect(failedWith(await store.add('user', 'Name: Ada', ctx))).toMatch(/^Nothing was changed: /)
    expect(existsSync(paths.userFile)).toBe(false)
    expect(store.read('user').entries).toEqual([])
  })

  it('restores the exact bytes of the previous file', async () => {
    const original = '\uFEFFfact A\n§\nfact B\n'
    writeFileSync(paths.memoryFile, original)
    lockDatabase()
    failedWith(await store.replace('memory', 'fact B', 'fact C', ctx))
    failedWith(await store.remove('memory', 'fact A', ctx, { force: true }))
    expect(memoryText()).toBe(original)
  })

  it('records a batch all or nothing: one refused row undoes the whole batch', async () => {
    await store.add('memory', 'stale fact', ctx)
    await store.add('memory', 'kept fact', ctx)
    refuseRowWithAfter('new fact')
    const error = failedWith(
      await store.applyBatch(
        'memory',
        [
          { action: 'remove', old_text: 'stale' },
          { action: 'replace', old_text: 'kept', content: 'kept fact, reworded' },
          { action: 'add', content: 'new fact' }
        ],
        ctx
      )
    )
    expect(error).toMatch(/^Nothing was changed: .*disk I\/O error/)
    expect(memoryText()).toBe('stale fact\n§\nkept fact')
    expect(rows().map((row) => row.kind)).toEqual(['memory.add', 'memory.add'])
  })

  it('a revert that cannot be recorded changes nothing and leaves the row revertible', async () => {
    await store.add('memory', 'fact A', ctx)
    await store.add('memory', 'fact B', ctx)
    const added = ledger.list({ limit: 1 })[0]
    lockDatabase()
    const unused = { revertChange: async () => ({ ok: false as const, error: 'unused' }) }
    const result = await revertLedgerEntry(ledger, { memory: store, skills: unused }, added.id)
    expect(result.ok).toBe(false)
    expect(!result.ok && result.error).toMatch(/^Nothing was changed: /)
    expect(memoryText()).toBe('fact A\n§\nfact B')
    unlockDatabase()
    expect(ledger.get(added.id)?.revertedBy).toBeNull()
    expect((await revertLedgerEntry(ledger, { memory: store, skills: unused }, added.id)).ok).toBe(true)
    expect(memoryText()).toBe('fact A')
  })
})

describe('ledger listeners', () => {
  it('a failing listener never fails the write; later listeners still hear about it', async () => {
    const logged = vi.spyOn(console, 'error').mockImplementation(() => {})
    const heard: string[] = []
    ledger.onRecord(() => {
      throw new Error('renderer went away')
    })
    ledger.onRecord((entry) => heard.push(String(entry.after)))
    try {
      const result = await store.applyBatch('memory', [{ action: 'add', content: 'fact A' }, { action: 'add', content: 'fact B' }], ctx)
      expect(result.success).toBe(true)
      expect(memoryText()).toBe('fact A\n§\nfact B')
      expect(rows().map((row) => row.after)).toEqual(['fact A', 'fact B'])
      expect(heard).toEqual(['fact A', 'fact B'])
      // Skills write through record(): the same protection applies there.
      const row = ledger.record({ kind: 'skill.create', target: 'skills/x/SKILL.md', before: null, after: 'x' }, { source: 'agent' })
      expect(ledger.get(row.id)?.after).toBe('x')
      expect(logged).toHaveBeenCalledWith(expect.stringContaining('ledger listener failed'), expect.any(Error))
    } finally {
      logged.mockRestore()
    }
  })

  it('listeners hear about a batch only once it is committed', async () => {
    const heard: number[] = []
    ledger.onRecord(() => heard.push(rows().length))
    refuseRowWithAfter('fact B')
    failedWith(await store.applyBatch('memory', [{ action: 'add', content: 'fact A' }, { action: 'add', content: 'fact B' }], ctx))
    expect(heard).toEqual([])
    await store.add('memory', 'fact C', ctx)
    expect(heard).toEqual([1])
  })
})

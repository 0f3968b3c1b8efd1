import { existsSync, lstatSync, mkdtempSync, readFileSync, readdirSync, renameSync, rmSync, symlinkSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { ensureHome, type HomePaths } from '../../../electron/core/config/home'
import { openStateDb, type StateDb } from '../../../electron/core/db/state-db'
import { Ledger } from '../../../electron/core/ledger/ledger'
import { MemoryStore, type MemoryCallContext } from '../../../electron/core/memory'
import { newTurnState } from '../../../electron/core/tools/types'

let home: string
let elsewhere: string
let paths: HomePaths
let db: StateDb
let ledger: Ledger
let store: MemoryStore
let ctx: MemoryCallContext

beforeEach(() => {
  home = mkdtempSync(join(tmpdir(), 'cairn-'))
  elsewhere = mkdtempSync(join(tmpdir(), 'cairn-elsewhere-'))
  paths = ensureHome(home)
  db = openStateDb(paths.stateDb)
  ledger = new Ledger(db)
  store = new MemoryStore({ dataHome: home, dir: paths.memoriesDir, memoryCharLimit: 500, userCharLimit: 300, recorder: ledger })
  ctx = { write: { source: 'agent', sessionId: 's1' }, turn: newTurnState() }
})

afterEach(() => {
  db.close()
  rmSync(home, { recursive: true, force: true })
  rmSync(elsewhere, { recursive: true, force: true })
})

describe('memory files reached through symlinks', () => {
  it('refuses a memory add when MEMORY.md is a symlink to a file elsewhere, and leaves that file untouched', async () => {
    const victim = join(elsewhere, 'notes.txt')
    writeFileSync(victim, 'my own notes\n')
    const memoryFile = join(paths.memoriesDir, 'MEMORY.md')
    rmSync(memoryFile, { force: true })
    symlinkSync(victim, memoryFile)

    const result = await store.add('memory', 'User prefers tabs', ctx)
    expect(result.success).toBe(false)
    expect((result as { error: string }).error).toMatch(/is a symlink \(it points to .*notes\.txt\).*never writes MEMORY\.md through a symlink/)
    expect(readFileSync(victim, 'utf8')).toBe('my own notes\n')
    expect(readdirSync(elsewhere)).toEqual(['notes.txt'])
    expect(lstatSync(memoryFile).isSymbolicLink()).toBe(true)
    expect(ledger.list({ limit: 10 })).toEqual([])
  })

  it('refuses every change (replace, remove, the drift backup) through a linked USER.md', async () => {
    const victim = join(elsewhere, 'profile.md')
    writeFileSync(victim, 'free text that would look like drift\n'.repeat(20))
    const userFile = join(paths.memoriesDir, 'USER.md')
    rmSync(userFile, { force: true })
    symlinkSync(victim, userFile)
    for (const result of [await store.replace('user', 'free text', 'changed', ctx), await store.remove('user', 'free text', ctx), await store.add('user', 'Name: Ada', ctx)]) {
      expect(result.success).toBe(false)
    }
    expect(readFileSync(victim, 'utf8')).toBe('free text that would look like drift\n'.repeat(20))
    expect(readdirSync(paths.memoriesDir).filter((name) => name.includes('.bak'))).toEqual([])
  })

  it('refuses when the memories folder itself is a symlink, and creates nothing there (no file, lock or temp file)', async () => {
    renameSync(paths.memoriesDir, join(elsewhere, 'moved'))
    symlinkSync(join(elsewhere, 'moved'), paths.memoriesDir)
    const before = readdirSync(join(elsewhere, 'moved')).sort()

    const result = await store.add('memory', 'User prefers tabs', ctx)
    expect(result.success).toBe(false)
    expect((result as { error: string }).error).toMatch(/memories is a symlink/)
    expect(readdirSync(join(elsewhere, 'moved')).sort()).toEqual(before)
    expect(existsSync(join(elsewhere, 'moved', 'MEMORY.md.lock'))).toBe(false)
  })

  it('still writes regular memory files', async () => {
    const result = await store.add('memory', 'User prefers tabs', ctx)
    expect(result.success).toBe(true)
    expect(readFileSync(join(paths.memoriesDir, 'MEMORY.md'), 'utf8')).toBe('User prefers tabs')
  })
})

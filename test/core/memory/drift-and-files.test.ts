import { appendFileSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import type { StateDb } from '../../../electron/core/db/state-db'
import { openStateDb } from '../../../electron/core/db/state-db'
import { ensureHome, type HomePaths } from '../../../electron/core/config/home'
import { Ledger } from '../../../electron/core/ledger/ledger'
import { MemoryStore, type MemoryCallContext, type MemoryFailure, type MemoryResult } from '../../../electron/core/memory'
import { newTurnState } from '../../../electron/core/tools/types'

let home: string
let paths: HomePaths
let db: StateDb
let ledger: Ledger
let store: MemoryStore
let ctx: MemoryCallContext

function makeStore(memoryCharLimit = 500, userCharLimit = 300): MemoryStore {
  return new MemoryStore({ dataHome: home, dir: paths.memoriesDir, memoryCharLimit, userCharLimit, recorder: ledger })
}

beforeEach(() => {
  home = mkdtempSync(join(tmpdir(), 'cairn-'))
  paths = ensureHome(home)
  db = openStateDb(paths.stateDb)
  ledger = new Ledger(db)
  store = makeStore()
  ctx = { write: { source: 'agent', sessionId: 's1' }, turn: newTurnState() }
})

afterEach(() => {
  db.close()
  rmSync(home, { recursive: true, force: true })
})

function failed(result: MemoryResult): MemoryFailure {
  expect(result.success).toBe(false)
  return result as MemoryFailure
}

const fileText = () => readFileSync(paths.memoryFile, 'utf8')

describe('drift guard (Hermes #26045)', () => {
  const freeText = () => '\n' + Array.from({ length: 3 }, (_, i) => `free-form note ${i} ${'w'.repeat(800)}`).join('\n')

  beforeEach(async () => {
    await store.add('memory', 'fact A', ctx)
    await store.add('memory', 'fact B', ctx)
    appendFileSync(paths.memoryFile, freeText())
  })

  it.each(['replace', 'remove', 'batch'] as const)('%s refuses, leaves the file alone and backs it up', async (kind) => {
    const before = fileText()
    const result = failed(
      kind === 'replace'
        ? await store.replace('memory', 'fact A', 'fact A2', ctx)
        : kind === 'remove'
          ? await store.remove('memory', 'fact A', ctx)
          : await store.applyBatch('memory', [{ action: 'remove', old_text: 'fact A' }], ctx)
    )
    expect(result.error).toContain('Refusing to write MEMORY.md')
    expect(result.error).toContain('.bak.')
    expect(result.drift_backup).toMatch(/MEMORY\.md\.bak\.\d+/)
    expect(result.remediation).toContain('memory(action=add')
    expect(fileText()).toBe(before)
    expect(readFileSync(result.drift_backup!, 'utf8')).toBe(before)
  })

  it('writes a new backup on every refused call', async () => {
    const first = failed(await store.remove('memory', 'fact A', ctx)).drift_backup
    const second = failed(await store.remove('memory', 'fact A', ctx)).drift_backup
    expect(first).not.toBe(second)
    expect(readdirSync(paths.memoriesDir).filter((name) => name.includes('.bak.'))).toHaveLength(2)
  })

  it('add still works and keeps the foreign text', async () => {
    // Mild drift that stays under the limit: a free-form line and stray separators.
    writeFileSync(paths.memoryFile, 'fact A\n§\nfact B\nextra content no delimiter  \n§\n\n§\n')
    expect(failed(await store.remove('memory', 'fact A', ctx)).drift_backup).toBeDefined()
    const result = await store.add('memory', 'fact C', ctx)
    expect(result.success).toBe(true)
    expect(fileText()).toBe('fact A\n§\nfact B\nextra content no delimiter\n§\nfact C')
  })

  it('an add that would overflow a drifted file is refused like any other overflow, file untouched', async () => {
    const before = fileText()
    const result = failed(await store.add('memory', 'fact C', ctx))
    expect(result.error).toContain('exceed')
    expect(fileText()).toBe(before)
  })

  it('covers the user target too', async () => {
    writeFileSync(paths.userFile, 'Name: Ada\n§\nlikes tea \n§\n')
    const result = failed(await store.remove('user', 'tea', ctx))
    expect(result.drift_backup).toMatch(/USER\.md\.bak\./)
  })

  it('never triggers on a clean file', async () => {
    writeFileSync(paths.memoryFile, 'fact A\n§\nfact B\n')
    const result = await store.replace('memory', 'fact B', 'fact B2', ctx)
    expect(result.success).toBe(true)
    expect(readdirSync(paths.memoriesDir).some((name) => name.includes('.bak.'))).toBe(false)
  })
})

describe('persistence and files', () => {
  it('round-trips across store instances', async () => {
    await store.add('memory', 'line one\nline two of the same entry', ctx)
    await store.add('user', 'Name: Ada', ctx)
    const again = makeStore()
    expect(again.read('memory').entries).toEqual(['line one\nline two of the same entry'])
    expect(again.read('user').entries).toEqual(['Name: Ada'])
  })

  it('drops duplicate entries on load, keeping the first', () => {
    writeFileSync(paths.memoryFile, 'duplicate entry\n§\nduplicate entry\n§\nunique entry')
    expect(store.read('memory').entries).toEqual(['duplicate entry', 'unique entry'])
  })

  it('only splits on a full § line; a bare § is text', () => {
    writeFileSync(paths.memoryFile, 'Law § 3 applies\n§\n\n§\n  second  ')
    expect(store.read('memory').entries).toEqual(['Law § 3 applies', 'second'])
  })

  it('a missing or blank file is an empty store', () => {
    expect(store.read('memory')).toEqual({ entries: [], usage: { current: 0, limit: 500, percent: 0 } })
    writeFileSync(paths.memoryFile, '  \n ')
    expect(store.read('memory').entries).toEqual([])
  })

  it('cleans up temp files left by a writer killed mid-write, but keeps backups', async () => {
    writeFileSync(join(paths.memoriesDir, 'MEMORY.md.1234567'), 'half a wri')
    writeFileSync(join(paths.memoriesDir, 'MEMORY.md.bak.1700000000000'), 'backup')
    await store.add('memory', 'fact A', ctx)
    expect(readdirSync(paths.memoriesDir).sort()).toEqual(['MEMORY.md', 'MEMORY.md.bak.1700000000000'])
  })

  it('drops a UTF-8 BOM left by an editor', async () => {
    writeFileSync(paths.memoryFile, '\uFEFFFirst fact.')
    expect(store.read('memory').entries).toEqual(['First fact.'])
    await store.add('memory', 'Second fact.', ctx)
    expect(fileText()).toBe('First fact.\n§\nSecond fact.')
  })

  it('refuses to write over a file that is not valid UTF-8 (never treats it as empty)', async () => {
    const bytes = Buffer.from([0xff, 0xfe, 0x80, 0x81, 0x20, 0x6e, 0x6f, 0x74, 0x65])
    writeFileSync(paths.memoryFile, bytes)
    const result = failed(await store.add('memory', 'New entry.', ctx))
    expect(result.error).toContain('Could not read MEMORY.md')
    expect(result.error).toContain('Nothing was changed')
    expect(readFileSync(paths.memoryFile)).toEqual(bytes)
  })

  it('removing the last entry leaves an empty file', async () => {
    await store.add('memory', 'only entry', ctx)
    await store.remove('memory', 'only', ctx, { force: true })
    expect(fileText()).toBe('')
  })
})

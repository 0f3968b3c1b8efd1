import { appendFileSync, mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import type { LedgerEntry, RevertResult } from '../../../shared/ledger'
import { openStateDb, type StateDb } from '../../../electron/core/db/state-db'
import { ensureHome, type HomePaths } from '../../../electron/core/config/home'
import { Ledger } from '../../../electron/core/ledger/ledger'
import { revertLedgerEntry } from '../../../electron/core/ledger/revert'
import { MemoryStore, type MemoryCallContext } from '../../../electron/core/memory'

let home: string
let paths: HomePaths
let db: StateDb
let ledger: Ledger
let store: MemoryStore
const ctx: MemoryCallContext = { write: { source: 'review', sessionId: 'sess-1', reviewId: 'rev-7' } }

beforeEach(() => {
  home = mkdtempSync(join(tmpdir(), 'cairn-'))
  paths = ensureHome(home)
  db = openStateDb(paths.stateDb)
  ledger = new Ledger(db)
  store = new MemoryStore({ dataHome: home, dir: paths.memoriesDir, memoryCharLimit: 500, userCharLimit: 300, recorder: ledger })
})

afterEach(() => {
  db.close()
  rmSync(home, { recursive: true, force: true })
})

/** Oldest first, which is the order the changes happened in. */
const rows = (): LedgerEntry[] => ledger.list({ limit: 1000 }).reverse()
const latest = (): LedgerEntry => ledger.list({ limit: 1 })[0]
const memoryText = () => readFileSync(paths.memoryFile, 'utf8')

function ok(result: RevertResult): LedgerEntry {
  if (!result.ok) throw new Error(`revert failed: ${result.error}`)
  return result.revertEntry
}

describe('ledger rows', () => {
  it('records one row per change with the entry text, the file and the write context', async () => {
    await store.add('memory', 'Uses Python 3.11', ctx)
    await store.replace('memory', '3.11', 'Uses Python 3.12', ctx)
    await store.add('user', 'Name: Ada', ctx)
    await store.remove('user', 'Ada', ctx, { force: true })
    expect(rows().map(({ kind, target, before, after, source, sessionId, reviewId }) => ({ kind, target, before, after, source, sessionId, reviewId }))).toEqual([
      { kind: 'memory.add', target: 'memories/MEMORY.md', before: null, after: 'Uses Python 3.11', source: 'review', sessionId: 'sess-1', reviewId: 'rev-7' },
      { kind: 'memory.replace', target: 'memories/MEMORY.md', before: 'Uses Python 3.11', after: 'Uses Python 3.12', source: 'review', sessionId: 'sess-1', reviewId: 'rev-7' },
      { kind: 'memory.add', target: 'memories/USER.md', before: null, after: 'Name: Ada', source: 'review', sessionId: 'sess-1', reviewId: 'rev-7' },
      { kind: 'memory.remove', target: 'memories/USER.md', before: 'Name: Ada', after: null, source: 'review', sessionId: 'sess-1', reviewId: 'rev-7' }
    ])
  })

  it('a batch records one row per applied operation, skipping duplicate adds', async () => {
    await store.add('memory', 'stale fact', ctx)
    await store.add('memory', 'kept fact', ctx)
    await store.applyBatch(
      'memory',
      [
        { action: 'remove', old_text: 'stale' },
        { action: 'add', content: 'kept fact' },
        { action: 'add', content: 'new fact' },
        { action: 'replace', old_text: 'kept', content: 'kept fact, reworded' }
      ],
      ctx
    )
    expect(rows().slice(2).map(({ kind, before, after }) => ({ kind, before, after }))).toEqual([
      { kind: 'memory.remove', before: 'stale fact', after: null },
      { kind: 'memory.add', before: null, after: 'new fact' },
      { kind: 'memory.replace', before: 'kept fact', after: 'kept fact, reworded' }
    ])
  })

  it('no-ops and refusals record nothing', async () => {
    await store.add('memory', 'fact A', ctx)
    await store.add('memory', 'fact A', ctx)
    await store.add('memory', 'x'.repeat(600), ctx)
    await store.remove('memory', 'missing', ctx)
    await store.applyBatch('memory', [{ action: 'add', content: 'fact B' }, { action: 'remove', old_text: 'missing' }], ctx)
    expect(rows()).toHaveLength(1)
  })
})

describe('revertChange', () => {
  it('reverts an add by removing that entry, recording a revert row', async () => {
    await store.add('memory', 'fact A', ctx)
    await store.add('memory', 'fact B', ctx)
    const added = latest()
    const revert = ok(await store.revertChange(added))
    expect(memoryText()).toBe('fact A')
    expect(revert).toMatchObject({
      kind: 'memory.remove',
      target: 'memories/MEMORY.md',
      source: 'revert',
      before: 'fact B',
      after: null,
      meta: { revertOf: added.id }
    })
    // The revert row marks the row it undid as it commits (so a revert killed before the dispatcher returns still does).
    expect(ledger.get(added.id)?.revertedBy).toBe(revert.id)
  })

  it('reverts a replace by restoring the old text in place', async () => {
    await store.add('memory', 'first', ctx)
    await store.add('memory', 'Uses Python 3.11', ctx)
    await store.add('memory', 'last', ctx)
    await store.replace('memory', '3.11', 'Uses Python 3.12', ctx)
    const replaced = latest()
    const revert = ok(await store.revertChange(replaced))
    expect(memoryText()).toBe('first\n§\nUses Python 3.11\n§\nlast')
    expect(revert).toMatchObject({ kind: 'memory.replace', before: 'Uses Python 3.12', after: 'Uses Python 3.11', source: 'revert' })
  })

  it('reverts a remove by adding the entry back', async () => {
    await store.add('user', 'Name: Ada', ctx)
    await store.add('user', 'Likes tea', ctx)
    await store.remove('user', 'tea', ctx, { force: true })
    const removed = latest()
    const revert = ok(await store.revertChange(removed))
    expect(readFileSync(paths.userFile, 'utf8')).toBe('Name: Ada\n§\nLikes tea')
    expect(revert).toMatchObject({ kind: 'memory.add', target: 'memories/USER.md', before: null, after: 'Likes tea', meta: { revertOf: removed.id } })
  })

  it('refuses with a conflict when the entry was changed since', async () => {
    await store.add('memory', 'fact A', ctx)
    const added = latest()
    await store.replace('memory', 'fact A', 'fact A, edited', ctx)
    const before = memoryText()
    const result = await store.revertChange(added)
    expect(result).toEqual({
      ok: false,
      error: expect.stringContaining('no longer holds the entry'),
      key: 'revert.memory_entry_changed',
      params: { id: added.id, file: 'MEMORY.md' },
      conflict: { expected: 'fact A', actual: 'fact A, edited' }
    })
    expect(memoryText()).toBe(before)
  })

  it('refuses to re-add a removed entry that is already back', async () => {
    await store.add('memory', 'fact A', ctx)
    await store.add('memory', 'fact B', ctx)
    await store.remove('memory', 'fact B', ctx, { force: true })
    const removed = latest()
    expect(removed.kind).toBe('memory.remove')
    await store.add('memory', 'fact B', ctx)
    const result = await store.revertChange(removed)
    expect(result.ok).toBe(false)
    expect(!result.ok && result.conflict).toEqual({ expected: null, actual: 'fact A\n§\nfact B' })
  })

  it('fails clearly when restoring would exceed the limit', async () => {
    await store.add('memory', 'a'.repeat(300), ctx)
    await store.remove('memory', 'aaa', ctx, { force: true })
    const removed = latest()
    await store.add('memory', 'b'.repeat(300), ctx)
    const result = await store.revertChange(removed)
    expect(result.ok).toBe(false)
    expect(!result.ok && result.error).toContain('over its limit')
    expect(memoryText()).toBe('b'.repeat(300))
  })

  it('refuses to rewrite a file with outside edits, backing it up', async () => {
    await store.add('memory', 'fact A', ctx)
    const added = latest()
    appendFileSync(paths.memoryFile, `\n${'free text '.repeat(60)}`)
    const before = memoryText()
    const result = await store.revertChange(added)
    expect(result.ok).toBe(false)
    expect(!result.ok && result.error).toContain('.bak.')
    expect(memoryText()).toBe(before)
  })

  it('refuses rows that are not memory changes', async () => {
    const skillRow = ledger.record({ kind: 'skill.create', target: 'skills/x/SKILL.md', before: null, after: 'x' }, { source: 'agent' })
    const result = await store.revertChange(skillRow)
    expect(result.ok).toBe(false)
    expect(!result.ok && result.error).toContain('not a memory change')
  })

  it('works through revertLedgerEntry, which marks the row reverted', async () => {
    await store.add('memory', 'fact A', ctx)
    const added = latest()
    const unused = { revertChange: async (): Promise<RevertResult> => ({ ok: false, error: 'unused' }) }
    const result = await revertLedgerEntry(ledger, { memory: store, skills: unused }, added.id)
    expect(result.ok).toBe(true)
    expect(ledger.get(added.id)?.revertedBy).toBe(ok(result).id)
    expect(memoryText()).toBe('')
  })
})

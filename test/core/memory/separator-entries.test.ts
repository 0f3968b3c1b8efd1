import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import type { LedgerEntry } from '../../../shared/ledger'
import { openStateDb, type StateDb } from '../../../electron/core/db/state-db'
import { ensureHome, type HomePaths } from '../../../electron/core/config/home'
import { Ledger } from '../../../electron/core/ledger/ledger'
import { revertLedgerEntry } from '../../../electron/core/ledger/revert'
import { MemoryStore, type MemoryCallContext, type MemoryResult } from '../../../electron/core/memory'
import { planBatch } from '../../../electron/core/memory/entry-ops'

let home: string
let paths: HomePaths
let db: StateDb
let ledger: Ledger
let store: MemoryStore
const ctx: MemoryCallContext = { write: { source: 'agent', sessionId: 's1' } }

beforeEach(() => {
  home = mkdtempSync(join(tmpdir(), 'cairn-'))
  paths = ensureHome(home)
  db = openStateDb(paths.stateDb)
  ledger = new Ledger(db)
  store = new MemoryStore({ dataHome: home, dir: paths.memoriesDir, memoryCharLimit: 2000, userCharLimit: 1000, recorder: ledger })
})

afterEach(() => {
  db.close()
  rmSync(home, { recursive: true, force: true })
})

/** Oldest first. */
const rows = (): LedgerEntry[] => ledger.list({ limit: 1000 }).reverse()
const memoryText = (): string => readFileSync(paths.memoryFile, 'utf8')
const noSkills = { revertChange: async () => ({ ok: false as const, error: 'not a skill' }) }
const revert = (id: number) => revertLedgerEntry(ledger, { memory: store, skills: noSkills }, id)

function errorOf(result: MemoryResult): string {
  if (result.success) throw new Error('expected a refusal')
  return result.error
}

const SEPARATOR_ERROR = /^Refused: this entry has a line holding only '§' \(line \d+\)\. MEMORY\.md separates entries with such lines/

describe('entries that hold a separator line', () => {
  it.each([
    ['a separator in the middle', 'Deploys go through CI\n§\nNever push to main'],
    ['a separator at the end', 'Deploys go through CI\n§'],
    ['a separator at the start', '§\nDeploys go through CI'],
    ['only a separator', '§'],
    ['a separator with spaces around it', 'Deploys go through CI\n  §  \nNever push to main'],
    ['a Windows line break separator', 'Deploys go through CI\r\n§\r\nNever push to main']
  ])('refuses %s on add, naming the line and the fix', async (_name, content) => {
    await store.add('memory', 'Uses pnpm', ctx)
    const error = errorOf(await store.add('memory', content, ctx))
    expect(error).toMatch(SEPARATOR_ERROR)
    expect(error).toContain('Nothing was saved.')
    expect(error).toContain('Save each fact as its own entry')
    expect(memoryText()).toBe('Uses pnpm')
    expect(rows()).toHaveLength(1)
  })

  it('names USER.md for the user profile', async () => {
    expect(errorOf(await store.add('user', 'Name: Ada\n§\nRole: admin', ctx))).toContain('USER.md separates entries')
  })

  it.each(['Rent is due per § 3 of the lease', '§ 3 applies', 'a§b', 'Line one\nLine two'])('keeps allowing %j', async (content) => {
    expect((await store.add('memory', content, ctx)).success).toBe(true)
    expect(store.read('memory').entries).toEqual([content])
  })

  it('refuses a replace that would bring one in, keeping the old entry', async () => {
    await store.add('memory', 'Uses pnpm', ctx)
    const error = errorOf(await store.replace('memory', 'pnpm', 'Uses pnpm\n§', ctx))
    expect(error).toMatch(SEPARATOR_ERROR)
    expect(memoryText()).toBe('Uses pnpm')
  })

  it('refuses a whole batch when one operation carries one, applying nothing', async () => {
    await store.add('memory', 'Uses pnpm', ctx)
    const result = await store.applyBatch('memory', [
      { action: 'add', content: 'Tests run with vitest' },
      { action: 'replace', old_text: 'pnpm', content: 'Uses pnpm\n§\nUses turbo' }
    ], ctx)
    const error = errorOf(result)
    expect(error).toMatch(/^Operation 2 \(replace\): Refused: this entry has a line holding only '§' \(line 2\)/)
    expect(error).toContain('No operations were applied (batch is all-or-nothing).')
    expect(memoryText()).toBe('Uses pnpm')
    expect(rows()).toHaveLength(1)
  })

  it('is refused by planBatch itself too, whoever calls it', () => {
    const plan = planBatch(['Uses pnpm'], [{ action: 'add', content: 'x\n§\ny' }], 'MEMORY.md')
    expect(plan.ok).toBe(false)
    if (!plan.ok) expect(plan.error).toMatch(/^Operation 1 \(add\): Refused: this entry has a line holding only '§'/)
  })
})

describe('revert around a refused separator entry', () => {
  it('adds, replaces and reverts with the ledger intact', async () => {
    await store.add('memory', 'Fact A', ctx)
    await store.add('memory', 'Fact B', ctx)
    expect(errorOf(await store.add('memory', 'Fact C\n§\nFact D', ctx))).toMatch(SEPARATOR_ERROR)
    await store.replace('memory', 'Fact B', 'Fact B, reworded', ctx)
    expect(errorOf(await store.replace('memory', 'Fact A', 'Fact A\n§', ctx))).toMatch(SEPARATOR_ERROR)
    expect(errorOf(await store.applyBatch('memory', [{ action: 'add', content: '§\nFact E' }], ctx))).toMatch(/Refused/)
    expect(store.read('memory').entries).toEqual(['Fact A', 'Fact B, reworded'])

    const [addA, addB, replaceB] = rows()
    expect(rows().map((row) => [row.kind, row.before, row.after])).toEqual([
      ['memory.add', null, 'Fact A'],
      ['memory.add', null, 'Fact B'],
      ['memory.replace', 'Fact B', 'Fact B, reworded']
    ])

    const undoReplace = await revert(replaceB.id)
    expect(undoReplace.ok).toBe(true)
    expect(memoryText()).toBe('Fact A\n§\nFact B')
    const undoAdd = await revert(addA.id)
    expect(undoAdd.ok).toBe(true)
    expect(memoryText()).toBe('Fact B')

    expect(rows().map((row) => [row.kind, row.source, row.revertedBy !== null])).toEqual([
      ['memory.add', 'agent', true],
      ['memory.add', 'agent', false],
      ['memory.replace', 'agent', true],
      ['memory.replace', 'revert', false],
      ['memory.remove', 'revert', false]
    ])
    // The one change left standing still reverts cleanly.
    expect((await revert(addB.id)).ok).toBe(true)
    expect(store.read('memory').entries).toEqual([])
  })

  it('refuses to restore a separator line from an old ledger row instead of splitting the entry', async () => {
    await store.add('memory', 'Fact A', ctx)
    const [row] = rows()
    const forged = { ...row, kind: 'memory.remove', before: 'Fact C\n§\nFact D', after: null } as LedgerEntry
    const result = await store.revertChange(forged)
    expect(result.ok).toBe(false)
    if (!result.ok) expect(result.error).toMatch(/^Entry #\d+ cannot be reverted: Refused: this entry has a line holding only '§'/)
    expect(memoryText()).toBe('Fact A')
  })
})

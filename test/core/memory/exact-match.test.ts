import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { openStateDb, type StateDb } from '../../../electron/core/db/state-db'
import { ensureHome, type HomePaths } from '../../../electron/core/config/home'
import { Ledger } from '../../../electron/core/ledger/ledger'
import { MemoryStore, createMemoryTool, type MemoryCallContext } from '../../../electron/core/memory'
import { runTool } from '../../../electron/core/tools/run-tool'
import { newTurnState, type ToolContext } from '../../../electron/core/tools/types'

let home: string
let paths: HomePaths
let db: StateDb
let ledger: Ledger
let store: MemoryStore
const ctx: MemoryCallContext = { write: { source: 'user' } }

/** One entry is a prefix of another: the case where editing by full text used to be "ambiguous". */
const short = 'Uses pnpm'
const long = 'Uses pnpm for monorepos'

beforeEach(async () => {
  home = mkdtempSync(join(tmpdir(), 'cairn-'))
  paths = ensureHome(home)
  db = openStateDb(paths.stateDb)
  ledger = new Ledger(db)
  store = new MemoryStore({ dataHome: home, dir: paths.memoriesDir, memoryCharLimit: 500, userCharLimit: 300, recorder: ledger })
  await store.add('memory', long, ctx)
  await store.add('memory', short, ctx)
  await store.add('memory', 'Runs Node 20', ctx)
})

afterEach(() => {
  db.close()
  rmSync(home, { recursive: true, force: true })
})

const entries = () => store.read('memory').entries
const latestRow = () => ledger.list({ limit: 1 })[0]

describe('old_text equal to a whole entry picks that entry', () => {
  it('replace', async () => {
    expect(await store.replace('memory', short, 'Uses pnpm 9', ctx)).toMatchObject({ success: true })
    expect(entries()).toEqual([long, 'Uses pnpm 9', 'Runs Node 20'])
    expect(latestRow()).toMatchObject({ kind: 'memory.replace', before: short, after: 'Uses pnpm 9' })
  })

  it('replace, with the surrounding whitespace the UI or model may send', async () => {
    expect((await store.replace('memory', `  ${short}\n`, 'Uses pnpm 9', ctx)).success).toBe(true)
    expect(entries()).toEqual([long, 'Uses pnpm 9', 'Runs Node 20'])
  })

  it('remove', async () => {
    expect((await store.remove('memory', short, ctx)).success).toBe(true)
    expect(entries()).toEqual([long, 'Runs Node 20'])
    expect(latestRow()).toMatchObject({ kind: 'memory.remove', before: short })
  })

  it('the longer entry is still reachable by its own full text or a unique part', async () => {
    expect((await store.remove('memory', long, ctx)).success).toBe(true)
    expect(entries()).toEqual([short, 'Runs Node 20'])
    await store.add('memory', long, ctx)
    expect((await store.replace('memory', 'monorepos', 'Uses pnpm workspaces', ctx)).success).toBe(true)
    expect(entries()).toEqual([short, 'Runs Node 20', 'Uses pnpm workspaces'])
  })

  it('batch replace and remove', async () => {
    const result = await store.applyBatch(
      'memory',
      [
        { action: 'replace', old_text: short, content: 'Uses pnpm 9' },
        { action: 'remove', old_text: long }
      ],
      ctx
    )
    expect(result).toMatchObject({ success: true })
    expect(entries()).toEqual(['Uses pnpm 9', 'Runs Node 20'])
  })

  it('batch: an entry an earlier operation wrote is matched exactly too', async () => {
    const result = await store.applyBatch(
      'memory',
      [
        { action: 'remove', old_text: short },
        { action: 'add', content: 'Uses' },
        { action: 'remove', old_text: 'Uses' }
      ],
      ctx
    )
    expect(result).toMatchObject({ success: true })
    expect(entries()).toEqual([long, 'Runs Node 20'])
  })

  it('a real substring of two different entries is still ambiguous, and nothing changes', async () => {
    const before = readFileSync(paths.memoryFile, 'utf8')
    expect(await store.replace('memory', 'pnpm', 'x', ctx)).toMatchObject({
      success: false,
      error: "Multiple entries matched 'pnpm'. Be more specific.",
      matches: [long, short]
    })
    expect(await store.remove('memory', 'Uses', ctx)).toMatchObject({ success: false, matches: [long, short] })
    expect(await store.applyBatch('memory', [{ action: 'remove', old_text: 'pnpm' }], ctx)).toMatchObject({
      success: false,
      error: expect.stringContaining("'pnpm' matched multiple distinct entries")
    })
    expect(readFileSync(paths.memoryFile, 'utf8')).toBe(before)
  })
})

describe('through the memory tool', () => {
  let toolCtx: ToolContext

  beforeEach(() => {
    toolCtx = { write: { source: 'agent' }, turn: newTurnState() }
  })

  async function call(args: Record<string, unknown>): Promise<Record<string, unknown>> {
    return (await runTool(createMemoryTool(store, { enabled: true, userProfileEnabled: true }), args, toolCtx)) as Record<string, unknown>
  }

  it('replace, remove and a batch by full entry text', async () => {
    expect(await call({ action: 'replace', target: 'memory', old_text: short, content: 'Uses pnpm 9' })).toMatchObject({ success: true })
    expect(entries()).toEqual([long, 'Uses pnpm 9', 'Runs Node 20'])
    await store.add('memory', short, ctx)
    expect(await call({ action: 'remove', target: 'memory', old_text: short })).toMatchObject({ success: true })
    expect(entries()).toEqual([long, 'Uses pnpm 9', 'Runs Node 20'])
    await store.add('memory', short, ctx)
    expect(
      await call({
        target: 'memory',
        operations: [
          { action: 'remove', old_text: short },
          { action: 'replace', old_text: long, content: 'Uses pnpm workspaces' }
        ]
      })
    ).toMatchObject({ success: true })
    expect(entries()).toEqual(['Uses pnpm workspaces', 'Uses pnpm 9', 'Runs Node 20'])
  })

  it('a shared substring still asks the model to be more specific', async () => {
    expect(await call({ action: 'remove', target: 'memory', old_text: 'pnpm' })).toMatchObject({
      success: false,
      error: "Multiple entries matched 'pnpm'. Be more specific."
    })
    expect(entries()).toEqual([long, short, 'Runs Node 20'])
  })
})

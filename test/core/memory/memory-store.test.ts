import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import type { StateDb } from '../../../electron/core/db/state-db'
import { openStateDb } from '../../../electron/core/db/state-db'
import { ensureHome, type HomePaths } from '../../../electron/core/config/home'
import { Ledger } from '../../../electron/core/ledger/ledger'
import { MemoryStore, type MemoryCallContext, type MemoryFailure, type MemoryResult } from '../../../electron/core/memory'
import { newTurnState } from '../../../electron/core/tools/types'
import { messages } from '../../../electron/core/memory/messages'

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

describe('add', () => {
  it('saves the entry to MEMORY.md and answers with a terminal success', async () => {
    const result = await store.add('memory', '  User prefers dark mode  ', ctx)
    expect(result).toEqual({
      success: true,
      done: true,
      target: 'memory',
      usage: '4% — 22/500 chars',
      entry_count: 1,
      message: 'Entry added.',
      note: 'Write saved. This update is complete — do not repeat it.'
    })
    expect(fileText()).toBe('User prefers dark mode')
    expect(store.read('memory').entries).toEqual(['User prefers dark mode'])
  })

  it('joins entries with the § line and counts the separators in the usage', async () => {
    await store.add('memory', 'fact A', ctx)
    const result = await store.add('memory', 'fact B', ctx)
    expect(fileText()).toBe('fact A\n§\nfact B')
    expect(result).toMatchObject({ usage: '3% — 15/500 chars', entry_count: 2 })
  })

  it('refuses empty content', async () => {
    expect(failed(await store.add('memory', '   ', ctx)).error).toBe('Content cannot be empty.')
    expect(existsSync(paths.memoryFile)).toBe(false)
  })

  it('treats an exact duplicate as a successful no-op, and says it was one', async () => {
    await store.add('memory', 'fact A', ctx)
    const result = await store.add('memory', 'fact A', ctx)
    expect(result).toMatchObject({ success: true, duplicate: true, message: messages.alreadyExists, entry_count: 1 })
    expect((result as { message: string }).message).toMatch(/already exists/)
    expect(fileText()).toBe('fact A')
  })

  it('refuses to go over the limit and shows the entries to consolidate', async () => {
    await store.add('memory', 'x'.repeat(490), ctx)
    const result = failed(await store.add('memory', 'one more fact', ctx))
    expect(result.error).toContain('exceed')
    expect(result.error).toContain('retry this add')
    expect(result.current_entries).toEqual(['x'.repeat(490)])
    expect(result.usage).toBe('490/500')
    expect(store.read('memory').entries).toHaveLength(1)
  })

  it('allows a total exactly at the limit', async () => {
    await store.add('memory', 'a'.repeat(400), ctx)
    const result = await store.add('memory', 'b'.repeat(97), ctx)
    expect(result).toMatchObject({ success: true, usage: '100% — 500/500 chars' })
    expect(failed(await store.add('memory', 'c', ctx)).error).toContain('exceed')
  })

  it('counts characters, not UTF-16 units, like Hermes', async () => {
    const result = await store.add('memory', '🙂'.repeat(10), ctx)
    expect(result).toMatchObject({ usage: '2% — 10/500 chars' })
  })

  it('keeps the two targets in separate files with separate limits', async () => {
    await store.add('user', 'Name: Ada', ctx)
    expect(readFileSync(paths.userFile, 'utf8')).toBe('Name: Ada')
    expect(existsSync(paths.memoryFile)).toBe(false)
    const over = failed(await store.add('user', 'y'.repeat(301), ctx))
    expect(over.usage).toBe('9/300')
  })
})

describe('replace and remove', () => {
  beforeEach(async () => {
    await store.add('memory', 'Project uses Python 3.11', ctx)
    await store.add('memory', 'Deploys go through nginx on host alpha', ctx)
    await store.add('memory', 'The staging nginx runs on beta', ctx)
  })

  it('replace swaps the entry containing old_text', async () => {
    const result = await store.replace('memory', '3.11', 'Project uses Python 3.12', ctx)
    expect(result).toMatchObject({ success: true, message: 'Entry replaced.', entry_count: 3 })
    expect(store.read('memory').entries[0]).toBe('Project uses Python 3.12')
  })

  it('replace with no match lists the current entries', async () => {
    const result = failed(await store.replace('memory', 'nonexistent', 'x', ctx))
    expect(result.error).toBe(
      "No entry matched 'nonexistent'. Check current_entries below and retry with the exact text of the entry you want to replace."
    )
    expect(result.current_entries).toHaveLength(3)
  })

  it('an old_text matching several different entries is refused with previews', async () => {
    const result = failed(await store.replace('memory', 'nginx', 'x', ctx))
    expect(result.error).toBe("Multiple entries matched 'nginx'. Be more specific.")
    expect(result.matches).toEqual(['Deploys go through nginx on host alpha', 'The staging nginx runs on beta'])
  })

  it('previews are cut at 80 characters', async () => {
    await store.add('memory', `nginx ${'z'.repeat(100)}`, ctx)
    const result = failed(await store.remove('memory', 'nginx', ctx))
    expect(result.matches?.[2]).toBe(`nginx ${'z'.repeat(74)}...`)
  })

  it('identical duplicates in the file match as one (the first is used)', async () => {
    writeFileSync(paths.memoryFile, 'dup entry here\n§\nother\n§\ndup entry here')
    const result = await store.remove('memory', 'dup entry', ctx, { force: true })
    expect(result.success).toBe(true)
    expect(fileText()).toBe('other')
  })

  it('refuses empty old_text and empty new content', async () => {
    expect(failed(await store.replace('memory', '  ', 'x', ctx)).error).toBe('old_text cannot be empty.')
    expect(failed(await store.replace('memory', '3.11', ' ', ctx)).error).toBe(
      "new_content cannot be empty. Use 'remove' to delete entries."
    )
    expect(failed(await store.remove('memory', '   ', ctx)).error).toBe('old_text cannot be empty.')
  })

  it('a replacement over the limit is refused with the entries and usage', async () => {
    const result = failed(await store.replace('memory', '3.11', 'y'.repeat(600), ctx))
    expect(result.error).toContain('Replacement would put memory at')
    expect(result.error).toContain('retry')
    expect(result.current_entries).toHaveLength(3)
    expect(result.usage).toBeDefined()
  })

  it('remove deletes by substring; no match lists the entries', async () => {
    const removed = await store.remove('memory', 'host alpha', ctx)
    expect(removed).toMatchObject({ success: true, message: 'Entry removed.', entry_count: 2 })
    const missing = failed(await store.remove('memory', 'host alpha', ctx))
    expect(missing.error).toContain('you want to remove.')
    expect(missing.current_entries).toEqual(['Project uses Python 3.11', 'The staging nginx runs on beta'])
  })
})

describe('shrink guard (Hermes #76035: destructive consolidation of a store that was not full)', () => {
  beforeEach(async () => {
    await store.add('user', 'Name: Ada Lovelace', ctx)
    await store.add('user', 'Works as a mathematician; writes notes on the Analytical Engine in the evenings', ctx)
  })

  it('lets a single targeted remove through ("forget X"), even when it drops most of the store', async () => {
    const result = await store.remove('user', 'Analytical Engine', ctx)
    expect(result.success).toBe(true)
    expect(store.read('user').entries).toHaveLength(1)
  })

  it('refuses a batch removal that drops more than half of a store under 80% full', async () => {
    const before = readFileSync(paths.userFile, 'utf8')
    const result = failed(await store.applyBatch('user', [{ action: 'remove', old_text: 'Analytical Engine' }], ctx))
    expect(result.error).toContain('more than half')
    expect(result.error).toContain("action='read'")
    expect(result.error).toContain('force: true')
    expect(readFileSync(paths.userFile, 'utf8')).toBe(before)
  })

  it('refuses a replace that shrinks the store the same way', async () => {
    const result = failed(await store.replace('user', 'mathematician', 'Mathematician', ctx))
    expect(result.error).toContain('force: true')
  })

  it('refuses a batch that consolidates away most of the store', async () => {
    const result = failed(
      await store.applyBatch('user', [{ action: 'remove', old_text: 'Analytical' }, { action: 'add', content: 'Ada' }], ctx)
    )
    expect(result.error).toContain('more than half')
    expect(store.read('user').entries).toHaveLength(2)
  })

  it('lets the change through with force', async () => {
    const result = await store.remove('user', 'Analytical Engine', ctx, { force: true })
    expect(result).toMatchObject({ success: true, entry_count: 1 })
  })

  it('does not apply once the store is 80% full', async () => {
    await store.add('user', 'z'.repeat(150), ctx)
    const result = await store.applyBatch(
      'user',
      [{ action: 'remove', old_text: 'zzz' }, { action: 'remove', old_text: 'Analytical' }],
      ctx
    )
    expect(result.success).toBe(true)
    expect(store.read('user').entries).toEqual(['Name: Ada Lovelace'])
  })

  it('allows ordinary small edits', async () => {
    expect((await store.remove('user', 'Name: Ada', ctx)).success).toBe(true)
  })
})

describe('nearly-full warning', () => {
  it('is absent at 90% and present above it, in every kind of success', async () => {
    const atNinety = await store.add('memory', 'a'.repeat(450), ctx)
    expect(atNinety.success && atNinety.warning).toBeFalsy()
    const above = await store.add('memory', 'b'.repeat(10), ctx)
    expect(above).toMatchObject({ success: true })
    expect(above.success && above.warning).toContain('92% full')
    expect(above.success && above.warning).toContain('ONE call')
    const duplicate = await store.add('memory', 'b'.repeat(10), ctx)
    expect(duplicate.success && duplicate.warning).toContain('92% full')
  })
})

describe('batch', () => {
  it('removes stale entries and adds a new one in one atomic call', async () => {
    await store.add('memory', 'stale one', ctx)
    await store.add('memory', 'stale two', ctx)
    await store.add('memory', 'keeper fact that stays in memory for a long time', ctx)
    const result = await store.applyBatch(
      'memory',
      [
        { action: 'remove', old_text: 'stale one' },
        { action: 'remove', old_text: 'stale two' },
        { action: 'add', content: 'fresh fact' }
      ],
      ctx
    )
    expect(result).toMatchObject({ success: true, done: true, message: 'Applied 3 operation(s).', entry_count: 2 })
    expect(result.success && result.usage).toMatch(/% — \d+\/500 chars$/)
    expect(store.read('memory').entries).toEqual(['keeper fact that stays in memory for a long time', 'fresh fact'])
  })

  it('checks the limit only on the final result', async () => {
    await store.add('memory', 'p'.repeat(240), ctx)
    await store.add('memory', 'q'.repeat(240), ctx)
    expect(failed(await store.add('memory', 'r'.repeat(200), ctx)).error).toContain('exceed')
    const result = await store.applyBatch(
      'memory',
      [{ action: 'remove', old_text: 'ppp' }, { action: 'add', content: 'r'.repeat(200) }],
      ctx
    )
    expect(result.success).toBe(true)
    expect(store.read('memory').entries).toEqual(['q'.repeat(240), 'r'.repeat(200)])
  })

  it('one bad operation applies nothing and shows the live entries', async () => {
    await store.add('memory', 'fact A', ctx)
    const result = failed(
      await store.applyBatch('memory', [{ action: 'add', content: 'fact B' }, { action: 'remove', old_text: 'missing' }], ctx)
    )
    expect(result.error).toBe(
      "Operation 2 (remove): no entry matched 'missing'. No operations were applied (batch is all-or-nothing)."
    )
    expect(result.current_entries).toEqual(['fact A'])
    expect(fileText()).toBe('fact A')
  })

  it.each([
    [{ action: 'add' }, 'Operation 1 (add): content is required.'],
    [{ action: 'remove' }, 'Operation 1 (remove): old_text is required.'],
    [{ action: 'replace', old_text: 'fact' }, "Operation 1 (replace): content is required (use action='remove' to delete)."],
    [{ action: 'frobnicate' }, 'Operation 1 (frobnicate): unknown action. Use add, replace, or remove.']
  ])('reports a malformed operation %j', async (op, message) => {
    await store.add('memory', 'fact A', ctx)
    const result = failed(await store.applyBatch('memory', [op], ctx))
    expect(result.error).toBe(`${message} No operations were applied (batch is all-or-nothing).`)
  })

  it('an old_text matching several entries fails the batch', async () => {
    await store.add('memory', 'nginx alpha', ctx)
    await store.add('memory', 'nginx beta', ctx)
    const result = failed(await store.applyBatch('memory', [{ action: 'remove', old_text: 'nginx' }], ctx))
    expect(result.error).toContain("'nginx' matched multiple distinct entries -- be more specific.")
  })

  it('a final overflow writes nothing', async () => {
    await store.add('memory', 'fact A', ctx)
    const result = failed(
      await store.applyBatch('memory', [{ action: 'add', content: 'x'.repeat(300) }, { action: 'add', content: 'y'.repeat(300) }], ctx)
    )
    expect(result.error).toContain('After applying all 2 operations, memory would be at')
    expect(result.error).toContain('over the limit')
    expect(fileText()).toBe('fact A')
  })

  it('a duplicate add inside a batch is skipped, not an error', async () => {
    await store.add('memory', 'fact A', ctx)
    const result = await store.applyBatch('memory', [{ action: 'add', content: 'fact A' }, { action: 'add', content: 'fact B' }], ctx)
    expect(result).toMatchObject({ success: true, entry_count: 2 })
    expect(fileText()).toBe('fact A\n§\nfact B')
  })

  it('refuses an empty batch', async () => {
    expect(failed(await store.applyBatch('memory', [], ctx)).error).toBe('operations list is empty.')
  })
})

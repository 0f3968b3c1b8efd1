import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { CairnCore } from '../../../electron/core/cairn'
import { memoryEntryInfo, memoryHistory, restoreMemoryEntry } from '../../../electron/core/memory/entry-history'
import { replaceEntryKeepingPin, setEntryPinned } from '../../../electron/core/memory/entry-pinning'

let home: string
let core: CairnCore
const agent = { write: { source: 'agent' as const, sessionId: 's1' } }
const review = { write: { source: 'review' as const, reviewId: 'r1' } }
const user = { write: { source: 'user' as const } }

beforeEach(async () => {
  home = mkdtempSync(join(tmpdir(), 'cairn-entries-'))
  core = await CairnCore.open({ home })
})
afterEach(async () => {
  await core.close()
  rmSync(home, { recursive: true, force: true })
})

const userFile = () => readFileSync(join(home, 'memories', 'USER.md'), 'utf8')

/** An entry added by the agent, then rewritten twice by reviews, next to an unrelated one. */
async function seed(): Promise<void> {
  expect((await core.memory.add('user', 'Uses npm', agent)).success).toBe(true)
  expect((await core.memory.add('user', 'Lives in Lyon', agent)).success).toBe(true)
  expect((await core.memory.replace('user', 'Uses npm', 'Uses pnpm', review)).success).toBe(true)
  expect((await core.memory.replace('user', 'Uses pnpm', 'Uses pnpm 9 in every repo', review)).success).toBe(true)
  expect((await core.memory.add('memory', 'Build server is ci-01', agent)).success).toBe(true)
}

describe('memory entry history', () => {
  it('lists one file’s rows newest first, or only the chain that made one entry what it is', async () => {
    await seed()
    const all = memoryHistory(core.ledger, 'user')
    expect(all.map((row) => row.after)).toEqual(['Uses pnpm 9 in every repo', 'Uses pnpm', 'Lives in Lyon', 'Uses npm'])
    const chain = memoryHistory(core.ledger, 'user', 'Uses pnpm 9 in every repo')
    expect(chain.map((row) => [row.kind, row.before, row.after])).toEqual([
      ['memory.replace', 'Uses pnpm', 'Uses pnpm 9 in every repo'],
      ['memory.replace', 'Uses npm', 'Uses pnpm'],
      ['memory.add', null, 'Uses npm']
    ])
    expect(memoryHistory(core.ledger, 'memory').map((row) => row.after)).toEqual(['Build server is ci-01'])
    // A removed entry's chain starts at its removal.
    await core.memory.remove('user', 'Lives in Lyon', user)
    expect(memoryHistory(core.ledger, 'user', 'Lives in Lyon').map((row) => row.kind)).toEqual(['memory.remove', 'memory.add'])
  })

  it('answers where each entry came from, outside the file, and which are pinned', async () => {
    await seed()
    writeFileSync(join(home, 'memories', 'USER.md'), `${userFile()}\n§\nTyped by hand`)
    core.memoryPins.set('user', 'Lives in Lyon', true)
    const { entries } = core.memory.read('user')
    const info = memoryEntryInfo(core, 'user', entries)
    const [pnpm, lyon, byHand] = info
    const chain = memoryHistory(core.ledger, 'user', 'Uses pnpm 9 in every repo')
    expect(pnpm).toMatchObject({ text: 'Uses pnpm 9 in every repo', pinned: false, source: 'review', reviewId: 'r1', ledgerId: chain[0].id })
    expect(pnpm.updatedAt).toBe(chain[0].at)
    expect(pnpm.createdAt).toBe(chain[2].at)
    expect(lyon).toMatchObject({ pinned: true, source: 'agent', sessionId: 's1' })
    expect(byHand).toEqual({ text: 'Typed by hand', pinned: false, source: null, updatedAt: null, createdAt: null, confirmedAt: null, sessionId: null, reviewId: null, ledgerId: null, hidden: false, hiddenAt: null })
    expect(userFile()).not.toMatch(/pinned|review/)
  })
})

describe('restoring a memory entry', () => {
  it('puts the entry back as an earlier row left it, replacing its version now, as a user row', async () => {
    await seed()
    const [, , first] = memoryHistory(core.ledger, 'user', 'Uses pnpm 9 in every repo')
    const result = await restoreMemoryEntry(core, first.id)
    expect(result).toMatchObject({ ok: true, revertEntry: { kind: 'memory.replace', source: 'user', before: 'Uses pnpm 9 in every repo', after: 'Uses npm' } })
    expect(core.memory.read('user').entries).toEqual(['Uses npm', 'Lives in Lyon'])
    // The restore is a change like any other: the timeline reverts it.
    if (result.ok) expect((await core.revert(result.revertEntry.id)).ok).toBe(true)
    expect(core.memory.read('user').entries).toEqual(['Uses pnpm 9 in every repo', 'Lives in Lyon'])
  })

  it('brings a removed entry back, and refuses what is already there or not a memory row', async () => {
    await seed()
    await core.memory.remove('user', 'Lyon', user)
    // The newest row is the archive's copy of the entry (issue 28); the removal is the one before.
    const removal = core.ledger.list({ limit: 1, kinds: ['memory.remove'] })[0]
    expect(await restoreMemoryEntry(core, removal.id)).toMatchObject({ ok: true, revertEntry: { kind: 'memory.add', after: 'Lives in Lyon' } })
    expect(core.memory.read('user').entries).toContain('Lives in Lyon')
    const count = core.ledger.list({ limit: 100 }).length
    expect(await restoreMemoryEntry(core, removal.id)).toMatchObject({ ok: false, error: expect.stringMatching(/already holds/) })
    expect(await restoreMemoryEntry(core, 424242)).toMatchObject({ ok: false, code: 'not_found' })
    await core.skills.create({ name: 'a-skill', content: '---\nname: a-skill\ndescription: A skill\n---\nBody\n' }, { source: 'user' })
    expect(await restoreMemoryEntry(core, core.ledger.list({ limit: 1 })[0].id)).toMatchObject({ ok: false, error: expect.stringMatching(/not a memory entry/) })
    expect(core.ledger.list({ limit: 100 }).length).toBe(count + 1)
  })

  it('a pinned entry keeps its pin through the user’s replace and through a restore', async () => {
    await seed()
    expect(setEntryPinned(core, 'user', 'pnpm 9', true)).toEqual({ ok: true, entry: 'Uses pnpm 9 in every repo', pinned: true })
    const replaced = await replaceEntryKeepingPin(core, 'user', 'pnpm 9', 'Uses pnpm 10 in every repo', { source: 'user' }, { force: true })
    expect(replaced.success).toBe(true)
    expect([...core.memoryPins.list('user')]).toEqual(['Uses pnpm 10 in every repo'])
    const [, oldest] = memoryHistory(core.ledger, 'user', 'Uses pnpm 10 in every repo').slice(-2)
    expect((await restoreMemoryEntry(core, oldest.id)).ok).toBe(true)
    expect([...core.memoryPins.list('user')]).toEqual(['Uses npm'])
  })

  it('pins by a unique part of an entry, and says clearly when the part is missing or ambiguous', async () => {
    await seed()
    expect(setEntryPinned(core, 'user', 'nowhere', true)).toMatchObject({ ok: false, code: 'not_found' })
    expect(setEntryPinned(core, 'user', 'e', true)).toMatchObject({ ok: false, code: 'ambiguous', matches: ['Uses pnpm 9 in every repo', 'Lives in Lyon'] })
    expect(core.memoryPins.list('user').size).toBe(0)
    // A pin whose entry is gone can still be taken off by its text.
    core.memoryPins.set('user', 'Gone entry', true)
    expect(setEntryPinned(core, 'user', 'Gone entry', false)).toEqual({ ok: true, entry: 'Gone entry', pinned: false })
    expect(core.memoryPins.list('user').size).toBe(0)
  })
})

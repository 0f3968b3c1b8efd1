import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { CairnCore } from '../../../electron/core/cairn'
import { memoryEntryDates } from '../../../electron/core/memory/entry-history'
import { runMemoryTool, type MemoryFailure, type MemoryReadResult } from '../../../electron/core/memory'
import { newTurnState } from '../../../electron/core/tools/types'

let home: string
let core: CairnCore
const agent = () => ({ write: { source: 'agent' as const, sessionId: 's1' }, turn: newTurnState() })
const tool = { enabled: true, userProfileEnabled: true }
const PNPM = 'User prefers pnpm over npm for Node projects'
const REWORDED = 'The user prefers using pnpm instead of npm for Node projects'

beforeEach(async () => {
  home = mkdtempSync(join(tmpdir(), 'cairn-similar-'))
  core = await CairnCore.open({ home })
})
afterEach(async () => {
  vi.useRealTimers()
  await core.close()
  rmSync(home, { recursive: true, force: true })
})

const userFile = () => readFileSync(join(home, 'memories', 'USER.md'), 'utf8')

describe('an add beside an entry that says the same in other words, or the opposite', () => {
  it('refuses a reworded add, writes nothing, and hands back the entry with a replace to make', async () => {
    await core.memory.add('user', PNPM, agent())
    const result = (await runMemoryTool(core.memory, tool, { action: 'add', target: 'user', content: REWORDED }, agent())) as MemoryFailure
    expect(result).toMatchObject({
      success: false,
      similarity: 'near_duplicate',
      similar_entry: PNPM,
      suggested_call: { action: 'replace', old_text: PNPM, content: REWORDED },
      current_entries: [PNPM]
    })
    expect(result.error).toContain(PNPM)
    expect(userFile()).toBe(PNPM)
    // The suggested call goes through as it stands.
    const replaced = await runMemoryTool(core.memory, tool, { target: 'user', ...result.suggested_call! }, agent())
    expect(replaced.success).toBe(true)
    expect(core.memory.read('user').entries).toEqual([REWORDED])
  })

  it('refuses a contradicting add the same way', async () => {
    await core.memory.add('user', 'User prefers pnpm for Node projects', agent())
    const result = (await core.memory.add('user', 'User prefers npm for Node projects', agent())) as MemoryFailure
    expect(result).toMatchObject({ success: false, similarity: 'contradiction', similar_entry: 'User prefers pnpm for Node projects' })
    expect(core.memory.read('user').entries).toEqual(['User prefers pnpm for Node projects'])
  })

  it('lets a distinct fact that shares words through', async () => {
    await core.memory.add('user', 'User prefers pnpm for Node projects', agent())
    expect((await core.memory.add('user', "User's Node projects live in ~/code", agent())).success).toBe(true)
    expect(core.memory.read('user').entries).toHaveLength(2)
  })

  it('skips a reworded add in a batch without losing the facts beside it, refuses a contradicting one, and passes one that also replaces or removes it, in one call', async () => {
    await core.memory.add('user', PNPM, agent())
    await core.memory.add('user', 'User lives in Lyon', agent())
    const blind = await core.memory.applyBatch('user', [{ action: 'add', content: REWORDED }, { action: 'add', content: 'User has a cat named Tom' }], agent())
    expect(blind).toMatchObject({ success: true })
    expect((blind as { message: string }).message).toContain(`already says in other words (now confirmed): '${PNPM}'`)
    expect(core.memory.read('user').entries).toEqual([PNPM, 'User lives in Lyon', 'User has a cat named Tom'])
    await core.memory.applyBatch('user', [{ action: 'remove', old_text: 'cat named Tom' }], agent())
    const contradicting = (await core.memory.applyBatch('user', [{ action: 'add', content: 'User prefers yarn over npm for Node projects' }, { action: 'add', content: 'User has a dog' }], agent())) as MemoryFailure
    expect(contradicting).toMatchObject({ success: false, similar_entry: PNPM })
    expect(contradicting.error).toMatch(/^Operation 1 \(add\)/)
    expect(core.memory.read('user').entries).toEqual([PNPM, 'User lives in Lyon'])
    // Add first, then remove: the order within the batch does not matter.
    const consolidated = await core.memory.applyBatch('user', [{ action: 'add', content: REWORDED }, { action: 'remove', old_text: 'pnpm over npm' }], agent())
    expect(consolidated.success).toBe(true)
    expect(core.memory.read('user').entries).toEqual(['User lives in Lyon', REWORDED])
    const moved = await core.memory.applyBatch('user', [{ action: 'replace', old_text: 'Lyon', content: 'User lives in Lisbon, Portugal' }, { action: 'add', content: 'User prefers tea' }], agent())
    expect(moved.success).toBe(true)
  })

  it('fails a batch whose reworded add carries a detail the entry lacks, rather than dropping the detail', async () => {
    await core.memory.add('user', 'User prefers dark mode in the editor', agent())
    const detailed = (await core.memory.applyBatch('user', [{ action: 'add', content: 'The user prefers dark mode in the editor and the terminal' }, { action: 'add', content: 'User has a dog' }], agent())) as MemoryFailure
    expect(detailed).toMatchObject({ success: false, similar_entry: 'User prefers dark mode in the editor' })
    expect(core.memory.read('user').entries).toEqual(['User prefers dark mode in the editor'])
  })

  it('says an exact repeat was a duplicate, alone and in a batch, and counts it as a confirmation', async () => {
    vi.useFakeTimers({ toFake: ['Date'], now: new Date('2026-10-01T09:00:00Z') })
    await core.memory.add('user', PNPM, agent())
    vi.setSystemTime(new Date('2026-11-20T09:00:00Z'))
    expect(await core.memory.add('user', PNPM, agent())).toMatchObject({ success: true, duplicate: true })
    expect(await core.memory.applyBatch('user', [{ action: 'add', content: PNPM }], agent())).toMatchObject({ success: true, duplicate: true })
    expect(memoryEntryDates(core, 'user', [PNPM])).toEqual([{ text: PNPM, addedAt: '2026-10-01T09:00:00.000Z', confirmedAt: '2026-11-20T09:00:00.000Z' }])
    // A reworded repeat confirms it too, though nothing is written; the Timeline shows only the add.
    vi.setSystemTime(new Date('2026-12-01T09:00:00Z'))
    const restated = (await core.memory.add('user', REWORDED, agent())) as MemoryFailure
    expect(memoryEntryDates(core, 'user', [PNPM])[0].confirmedAt).toBe('2026-12-01T09:00:00.000Z')
    // The refusal's dates already say what its words say: the entry now counts as confirmed.
    expect(restated.entry_dates?.[0].last_confirmed).toContain('2026-12-01')
    expect(core.ledger.list({}).map((row) => row.kind)).toEqual(['memory.add'])
  })

  it('lets the user add beside a similar entry when they chose to', async () => {
    await core.memory.add('user', PNPM, agent())
    expect((await core.memory.add('user', REWORDED, { write: { source: 'user' } }, { allowSimilar: true })).success).toBe(true)
  })
})

describe('entry dates shown to the model', () => {
  it('puts when each entry was added and last confirmed beside the entries, in read and at the limit', async () => {
    const limitedHome = mkdtempSync(join(tmpdir(), 'cairn-similar-'))
    const limited = await CairnCore.open({ home: limitedHome })
    await limited.config.update({ memory: { memoryCharLimit: 120 } })
    try {
      vi.useFakeTimers({ toFake: ['Date'], now: new Date('2026-09-01T09:00:00Z') })
      await limited.memory.add('memory', 'Project builds with make release', agent())
      vi.setSystemTime(new Date('2026-12-01T09:00:00Z'))
      await limited.memory.add('memory', 'Staging deploy needs VPN', agent())
      await limited.memory.add('memory', 'Project builds with make release', agent())
      vi.setSystemTime(new Date('2026-12-05T09:00:00Z'))
      const read = (await runMemoryTool(limited.memory, tool, { action: 'read', target: 'memory' }, agent())) as MemoryReadResult
      expect(read.entries).toEqual(['Project builds with make release', 'Staging deploy needs VPN'])
      expect(read.entry_dates).toEqual([
        { added: '2026-09-01 (95 days ago)', last_confirmed: '2026-12-01 (4 days ago)' },
        { added: '2026-12-01 (4 days ago)', last_confirmed: 'never' }
      ])
      // Refused rather than archived (issue 28): the refusal at the limit still carries the dates.
      const full = (await limited.memory.add('memory', 'Logs rotate nightly at 02:00 on every production host and are kept for thirty days', agent(), { overflow: false })) as MemoryFailure
      expect(full.success).toBe(false)
      expect(full.error).toMatch(/entry_dates/)
      // Beside the entries, never inside them: old_text still matches what current_entries shows.
      expect(full.current_entries).toEqual(read.entries)
      expect(full.entry_dates).toEqual(read.entry_dates)
    } finally {
      await limited.close()
      rmSync(limitedHome, { recursive: true, force: true })
    }
  })
})

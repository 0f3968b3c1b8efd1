import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { CairnCore } from '../../../electron/core/cairn'
import { ensureHome, type HomePaths } from '../../../electron/core/config/home'
import { openStateDb, type StateDb } from '../../../electron/core/db/state-db'
import { Ledger } from '../../../electron/core/ledger/ledger'
import { MemoryStore } from '../../../electron/core/memory'
import { SkillStore } from '../../../electron/core/skills'
import { runChild } from './fault-rig'

let home: string
let paths: HomePaths
let db: StateDb
let ledger: Ledger
const opened: CairnCore[] = []

// A killed child leaves its lock behind; the next write here takes it over once stale (2 s, not 10 s).
const staleBefore = process.env.CAIRN_LOCK_STALE_MS
beforeAll(() => {
  process.env.CAIRN_LOCK_STALE_MS = '2000'
})
afterAll(() => {
  if (staleBefore === undefined) delete process.env.CAIRN_LOCK_STALE_MS
  else process.env.CAIRN_LOCK_STALE_MS = staleBefore
})

beforeEach(() => {
  home = mkdtempSync(join(tmpdir(), 'cairn-revert-kill-'))
  paths = ensureHome(home)
  db = openStateDb(paths.stateDb)
  ledger = new Ledger(db)
})

afterEach(async () => {
  for (const core of opened.splice(0)) await core.close()
  db.close()
  rmSync(home, { recursive: true, force: true })
})

async function openCore(): Promise<CairnCore> {
  const core = await CairnCore.open({ home })
  opened.push(core)
  return core
}

/** Reverts ledger row `id` in a child that SIGKILLs itself right after the atomic rename of `file`. */
async function revertKilledAfterRename(file: string, id: number): Promise<void> {
  const run = await runChild(home, 'revert', { id }, { CAIRN_FAULT: `after-rename:kill:${file}` }).done
  expect(run.signal, run.stderr).toBe('SIGKILL')
}

const skillText = (body: string) => `---\nname: deploy\ndescription: How to deploy\n---\n# Steps\n${body}\n`

describe('a revert killed between its file and its ledger row', () => {
  it('a skill patch’s revert killed right after the rename: its row was written pending first, and the next start commits it', async () => {
    const store = new SkillStore({ dataHome: home, skillsDir: paths.skillsDir, extraDirs: [], locksDir: paths.locksDir, db, recorder: ledger })
    store.load()
    expect((await store.create({ name: 'deploy', content: skillText('1. Apply.') }, { source: 'user' })).success).toBe(true)
    expect((await store.patch({ name: 'deploy', old_string: '1. Apply.', new_string: '1. Apply twice.' }, { source: 'agent' })).success).toBe(true)
    const patch = ledger.list()[0]
    expect(patch.kind).toBe('skill.patch')

    await revertKilledAfterRename('SKILL.md', patch.id)
    const skillMd = join(paths.skillsDir, 'deploy', 'SKILL.md')
    expect(readFileSync(skillMd, 'utf8')).toBe(skillText('1. Apply.'))
    // The file is back; the revert's row is pending: off the timeline, but not lost.
    expect(ledger.list().map((row) => row.kind)).toEqual(['skill.patch', 'skill.create'])
    expect(ledger.unsettled().map((row) => [row.state, row.kind, row.source, row.after])).toEqual([['pending', 'skill.patch', 'revert', skillText('1. Apply.')]])

    const core = await openCore()
    expect(core.startupReconcile).toMatchObject({ committed: [{ kind: 'skill.patch', source: 'revert' }], dropped: [], conflicts: [] })
    const [revert] = core.ledger.list()
    expect(revert).toMatchObject({ kind: 'skill.patch', source: 'revert', before: skillText('1. Apply twice.'), after: skillText('1. Apply.') })
    expect(revert.meta).toMatchObject({ revertOf: patch.id })
    // The undone patch is marked as reverted too, so the timeline does not offer to revert it again.
    expect(core.ledger.get(patch.id)!.revertedBy).toBe(revert.id)
    expect(core.ledger.unsettled()).toEqual([])
    // The reconciled revert is an ordinary row: reverting it puts the patch back.
    expect((await core.revert(revert.id)).ok).toBe(true)
    expect(readFileSync(skillMd, 'utf8')).toBe(skillText('1. Apply twice.'))
  }, 30_000)

  it('a memory add’s revert killed right after the rename: the next start commits its memory.remove row', async () => {
    const memory = new MemoryStore({ dataHome: home, dir: paths.memoriesDir, memoryCharLimit: 5000, userCharLimit: 5000, recorder: ledger })
    expect((await memory.add('memory', 'fact A', { write: { source: 'user' } })).success).toBe(true)
    expect((await memory.add('memory', 'fact B', { write: { source: 'agent' } })).success).toBe(true)
    const added = ledger.list()[0]

    await revertKilledAfterRename('MEMORY.md', added.id)
    expect(readFileSync(paths.memoryFile, 'utf8')).toBe('fact A')
    expect(ledger.unsettled().map((row) => [row.state, row.kind, row.source, row.before])).toEqual([['pending', 'memory.remove', 'revert', 'fact B']])

    const core = await openCore()
    expect(core.startupReconcile).toMatchObject({ committed: [{ kind: 'memory.remove', source: 'revert', before: 'fact B' }], dropped: [], conflicts: [] })
    expect(core.ledger.list().map((row) => row.kind)).toEqual(['memory.remove', 'memory.add', 'memory.add'])
    expect(core.memory.read('memory').entries).toEqual(['fact A'])
  }, 30_000)
})

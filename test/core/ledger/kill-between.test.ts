import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs'
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
  home = mkdtempSync(join(tmpdir(), 'cairn-kill-'))
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

/** Runs one child write that SIGKILLs itself at `point` of its atomic write of `file`. */
async function killedAt(point: 'before-rename' | 'after-rename', file: string, action: string, args: object): Promise<void> {
  const run = await runChild(home, action, args, { CAIRN_FAULT: `${point}:kill:${file}` }).done
  expect(run.signal, run.stderr).toBe('SIGKILL')
}

const skillText = (body: string) => `---\nname: deploy\ndescription: How to deploy\n---\n# Steps\n${body}\n`
const tempFilesIn = (dir: string) => readdirSync(dir).filter((name) => name.includes('.cairn-') || /\.\d+$/.test(name))

describe('a memory write killed between its file and its ledger row', () => {
  beforeEach(async () => {
    const memory = new MemoryStore({ dataHome: home, dir: paths.memoriesDir, memoryCharLimit: 5000, userCharLimit: 5000, recorder: ledger })
    expect((await memory.add('memory', 'fact A', { write: { source: 'user' } })).success).toBe(true)
  })

  it('killed right after the rename: the next start commits the row, and the file agrees', async () => {
    await killedAt('after-rename', 'MEMORY.md', 'memory-add', { content: 'fact B' })
    expect(readFileSync(paths.memoryFile, 'utf8')).toBe('fact A\n§\nfact B')
    // Until reconciled the row is pending: off the timeline, but not lost.
    expect(ledger.list().map((row) => row.after)).toEqual(['fact A'])
    expect(ledger.unsettled().map((row) => [row.state, row.after])).toEqual([['pending', 'fact B']])

    const core = await openCore()
    expect(core.startupReconcile).toMatchObject({ committed: [{ kind: 'memory.add', after: 'fact B' }], dropped: [], conflicts: [] })
    expect(core.ledger.list().map((row) => row.after)).toEqual(['fact B', 'fact A'])
    expect(core.ledger.unsettled()).toEqual([])
    expect(core.memory.read('memory').entries).toEqual(['fact A', 'fact B'])
    // The reconciled row is an ordinary one: it reverts.
    expect((await core.revert(core.ledger.list()[0].id)).ok).toBe(true)
    expect(core.memory.read('memory').entries).toEqual(['fact A'])
  }, 30_000)

  it('killed after the pending row, before the rename: the next start drops the row and the temp file', async () => {
    await killedAt('before-rename', 'MEMORY.md', 'memory-add', { content: 'fact B' })
    expect(readFileSync(paths.memoryFile, 'utf8')).toBe('fact A')
    expect(tempFilesIn(paths.memoriesDir)).toHaveLength(1)
    expect(ledger.unsettled().map((row) => row.after)).toEqual(['fact B'])

    const core = await openCore()
    expect(core.startupReconcile).toMatchObject({ committed: [], dropped: [{ after: 'fact B' }], conflicts: [] })
    expect(core.ledger.list().map((row) => row.after)).toEqual(['fact A'])
    expect(core.ledger.unsettled()).toEqual([])
    expect(tempFilesIn(paths.memoriesDir)).toEqual([])
  }, 30_000)
})

describe('a skill write killed between its file and its ledger row', () => {
  it('a create killed right after the rename is committed at the next start', async () => {
    await killedAt('after-rename', 'SKILL.md', 'skill-create', { name: 'deploy', content: skillText('1. Apply.') })
    expect(ledger.list()).toEqual([])
    const core = await openCore()
    expect(core.startupReconcile).toMatchObject({ committed: [{ kind: 'skill.create', target: 'skills/deploy/SKILL.md' }], dropped: [] })
    expect(core.ledger.list().map((row) => row.kind)).toEqual(['skill.create'])
    expect(core.skills.get('deploy')).not.toBeNull()
    expect(readFileSync(join(paths.skillsDir, 'deploy', 'SKILL.md'), 'utf8')).toBe(core.ledger.list()[0].after)
  }, 30_000)

  it('a patch killed before the rename is dropped; its temp file is never listed and is removed at start', async () => {
    const store = new SkillStore({ dataHome: home, skillsDir: paths.skillsDir, extraDirs: [], locksDir: paths.locksDir, db, recorder: ledger })
    store.load()
    expect((await store.create({ name: 'deploy', content: skillText('1. Apply.') }, { source: 'user' })).success).toBe(true)
    await killedAt('before-rename', 'SKILL.md', 'skill-patch', { name: 'deploy', old_string: '1. Apply.', new_string: '1. Apply twice.' })
    const dir = join(paths.skillsDir, 'deploy')
    expect(tempFilesIn(dir)).toHaveLength(1)
    // A process that was already running lists the skill's files without the orphan.
    const viewed = store.view('deploy')
    expect(viewed.success).toBe(true)
    expect(viewed.linked_files).toEqual({})

    const core = await openCore()
    expect(core.startupReconcile).toMatchObject({ committed: [], dropped: [{ kind: 'skill.patch' }], conflicts: [] })
    expect(core.ledger.list().map((row) => row.kind)).toEqual(['skill.create'])
    expect(readFileSync(join(dir, 'SKILL.md'), 'utf8')).toBe(skillText('1. Apply.'))
    expect(tempFilesIn(dir)).toEqual([])
  }, 30_000)
})

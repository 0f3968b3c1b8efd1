import { readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { beforeEach, describe, expect, it } from 'vitest'
import { MemoryStore } from '../../../electron/core/memory'
import { SkillStore } from '../../../electron/core/skills'
import { runChild } from './fault-rig'
import { killedWriterHome } from './fault-homes'

const rig = killedWriterHome('cairn-kill-')


/** Runs one child write that SIGKILLs itself at `point` of its atomic write of `file`. */
async function killedAt(point: 'before-rename' | 'after-rename', file: string, action: string, args: object): Promise<void> {
  const run = await runChild(rig.home, action, args, { CAIRN_FAULT: `${point}:kill:${file}` }).done
  expect(run.signal, run.stderr).toBe('SIGKILL')
}

const skillText = (body: string) => `---\nname: deploy\ndescription: How to deploy\n---\n# Steps\n${body}\n`
const tempFilesIn = (dir: string) => readdirSync(dir).filter((name) => name.includes('.cairn-') || /\.\d+$/.test(name))

describe('a memory write killed between its file and its ledger row', () => {
  beforeEach(async () => {
    const memory = new MemoryStore({ dataHome: rig.home, dir: rig.paths.memoriesDir, memoryCharLimit: 5000, userCharLimit: 5000, recorder: rig.ledger })
    expect((await memory.add('memory', 'fact A', { write: { source: 'user' } })).success).toBe(true)
  })

  it('killed right after the rename: the next start commits the row, and the file agrees', async () => {
    await killedAt('after-rename', 'MEMORY.md', 'memory-add', { content: 'fact B' })
    expect(readFileSync(rig.paths.memoryFile, 'utf8')).toBe('fact A\n§\nfact B')
    // Until reconciled the row is pending: off the timeline, but not lost.
    expect(rig.ledger.list().map((row) => row.after)).toEqual(['fact A'])
    expect(rig.ledger.unsettled().map((row) => [row.state, row.after])).toEqual([['pending', 'fact B']])

    const core = await rig.openCore()
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
    expect(readFileSync(rig.paths.memoryFile, 'utf8')).toBe('fact A')
    expect(tempFilesIn(rig.paths.memoriesDir)).toHaveLength(1)
    expect(rig.ledger.unsettled().map((row) => row.after)).toEqual(['fact B'])

    const core = await rig.openCore()
    expect(core.startupReconcile).toMatchObject({ committed: [], dropped: [{ after: 'fact B' }], conflicts: [] })
    expect(core.ledger.list().map((row) => row.after)).toEqual(['fact A'])
    expect(core.ledger.unsettled()).toEqual([])
    expect(tempFilesIn(rig.paths.memoriesDir)).toEqual([])
  }, 30_000)
})

describe('a skill write killed between its file and its ledger row', () => {
  it('a create killed right after the rename is committed at the next start', async () => {
    await killedAt('after-rename', 'SKILL.md', 'skill-create', { name: 'deploy', content: skillText('1. Apply.') })
    expect(rig.ledger.list()).toEqual([])
    const core = await rig.openCore()
    expect(core.startupReconcile).toMatchObject({ committed: [{ kind: 'skill.create', target: 'skills/deploy/SKILL.md' }], dropped: [] })
    expect(core.ledger.list().map((row) => row.kind)).toEqual(['skill.create'])
    expect(core.skills.get('deploy')).not.toBeNull()
    expect(readFileSync(join(rig.paths.skillsDir, 'deploy', 'SKILL.md'), 'utf8')).toBe(core.ledger.list()[0].after)
  }, 30_000)

  it('a patch killed before the rename is dropped; its temp file is never listed and is removed at start', async () => {
    const store = new SkillStore({ dataHome: rig.home, skillsDir: rig.paths.skillsDir, extraDirs: [], locksDir: rig.paths.locksDir, db: rig.db, recorder: rig.ledger })
    store.load()
    expect((await store.create({ name: 'deploy', content: skillText('1. Apply.') }, { source: 'user' })).success).toBe(true)
    await killedAt('before-rename', 'SKILL.md', 'skill-patch', { name: 'deploy', old_string: '1. Apply.', new_string: '1. Apply twice.' })
    const dir = join(rig.paths.skillsDir, 'deploy')
    expect(tempFilesIn(dir)).toHaveLength(1)
    // A process that was already running lists the skill's files without the orphan.
    const viewed = store.view('deploy')
    expect(viewed.success).toBe(true)
    expect(viewed.linked_files).toEqual({})

    const core = await rig.openCore()
    expect(core.startupReconcile).toMatchObject({ committed: [], dropped: [{ kind: 'skill.patch' }], conflicts: [] })
    expect(core.ledger.list().map((row) => row.kind)).toEqual(['skill.create'])
    expect(readFileSync(join(dir, 'SKILL.md'), 'utf8')).toBe(skillText('1. Apply.'))
    expect(tempFilesIn(dir)).toEqual([])
  }, 30_000)
})

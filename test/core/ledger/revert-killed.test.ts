import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { MemoryStore } from '../../../electron/core/memory'
import { SkillStore } from '../../../electron/core/skills'
import { runChild } from './fault-rig'
import { killedWriterHome } from './fault-homes'

const rig = killedWriterHome('cairn-revert-kill-')


/** Reverts ledger row `id` in a child that SIGKILLs itself right after the atomic rename of `file`. */
async function revertKilledAfterRename(file: string, id: number): Promise<void> {
  const run = await runChild(rig.home, 'revert', { id }, { CAIRN_FAULT: `after-rename:kill:${file}` }).done
  expect(run.signal, run.stderr).toBe('SIGKILL')
}

const skillText = (body: string) => `---\nname: deploy\ndescription: How to deploy\n---\n# Steps\n${body}\n`

describe('a revert killed between its file and its ledger row', () => {
  it('a skill patch’s revert killed right after the rename: its row was written pending first, and the next start commits it', async () => {
    const store = new SkillStore({ dataHome: rig.home, skillsDir: rig.paths.skillsDir, extraDirs: [], locksDir: rig.paths.locksDir, db: rig.db, recorder: rig.ledger })
    store.load()
    expect((await store.create({ name: 'deploy', content: skillText('1. Apply.') }, { source: 'user' })).success).toBe(true)
    expect((await store.patch({ name: 'deploy', old_string: '1. Apply.', new_string: '1. Apply twice.' }, { source: 'agent' })).success).toBe(true)
    const patch = rig.ledger.list()[0]
    expect(patch.kind).toBe('skill.patch')

    await revertKilledAfterRename('SKILL.md', patch.id)
    const skillMd = join(rig.paths.skillsDir, 'deploy', 'SKILL.md')
    expect(readFileSync(skillMd, 'utf8')).toBe(skillText('1. Apply.'))
    // The file is back; the revert's row is pending: off the timeline, but not lost.
    expect(rig.ledger.list().map((row) => row.kind)).toEqual(['skill.patch', 'skill.create'])
    expect(rig.ledger.unsettled().map((row) => [row.state, row.kind, row.source, row.after])).toEqual([['pending', 'skill.patch', 'revert', skillText('1. Apply.')]])

    const core = await rig.openCore()
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
    const memory = new MemoryStore({ dataHome: rig.home, dir: rig.paths.memoriesDir, memoryCharLimit: 5000, userCharLimit: 5000, recorder: rig.ledger })
    expect((await memory.add('memory', 'fact A', { write: { source: 'user' } })).success).toBe(true)
    expect((await memory.add('memory', 'fact B', { write: { source: 'agent' } })).success).toBe(true)
    const added = rig.ledger.list()[0]

    await revertKilledAfterRename('MEMORY.md', added.id)
    expect(readFileSync(rig.paths.memoryFile, 'utf8')).toBe('fact A')
    expect(rig.ledger.unsettled().map((row) => [row.state, row.kind, row.source, row.before])).toEqual([['pending', 'memory.remove', 'revert', 'fact B']])

    const core = await rig.openCore()
    expect(core.startupReconcile).toMatchObject({ committed: [{ kind: 'memory.remove', source: 'revert', before: 'fact B' }], dropped: [], conflicts: [] })
    expect(core.ledger.list().map((row) => row.kind)).toEqual(['memory.remove', 'memory.add', 'memory.add'])
    expect(core.memory.read('memory').entries).toEqual(['fact A'])
  }, 30_000)
})

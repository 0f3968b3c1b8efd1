import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { CairnCore } from '../../../electron/core/cairn'
import { ConfigStore } from '../../../electron/core/config/config-store'
import { restoreSkillVersion } from '../../../electron/core/skills/skill-history'
import { skillText } from '../../helpers/skill-env'

let home: string
let core: CairnCore
const agent = { source: 'agent' as const }

beforeEach(async () => {
  home = mkdtempSync(join(tmpdir(), 'cairn-restore-'))
  await new ConfigStore(join(home, 'config.json')).update({ skills: { extraDirs: [] } })
  core = await CairnCore.open({ home })
})
afterEach(async () => {
  await core.close()
  rmSync(home, { recursive: true, force: true })
})

const v1 = skillText('deploy', 'Deploy the site', '# Steps\n1. Build.\n2. Upload.\n')
const v2 = skillText('deploy', 'Deploy the site', '# Steps\n1. Build.\n2. Upload.\n3. Purge the cache.\n')
const v3 = skillText('deploy', 'Deploy the site', '# Steps\n1. Build with --prod.\n2. Upload.\n3. Purge the cache.\n')

async function history(): Promise<{ created: number; patched: number; edited: number; path: string }> {
  expect((await core.skills.create({ name: 'deploy', category: 'web', content: v1 }, agent)).success).toBe(true)
  expect((await core.skills.patch({ name: 'deploy', old_string: '2. Upload.\n', new_string: '2. Upload.\n3. Purge the cache.\n' }, agent)).success).toBe(true)
  expect((await core.skills.edit({ name: 'deploy', content: v3 }, agent)).success).toBe(true)
  const [edited, patched, created] = core.ledger.forSkill('deploy').map((row) => row.id)
  return { created, patched, edited, path: core.skills.get('deploy')!.path }
}

describe('restoring a skill version', () => {
  it('makes SKILL.md read as it did after an earlier row, as a new user edit that can itself be reverted', async () => {
    const { created, patched, path } = await history()
    const result = await restoreSkillVersion(core, 'deploy', patched)
    expect(result.ok).toBe(true)
    if (!result.ok) return
    expect(readFileSync(path, 'utf8')).toBe(v2)
    expect(result.revertEntry).toMatchObject({ kind: 'skill.edit', source: 'user', before: v3, after: v2 })
    expect(core.ledger.forSkill('deploy')[0].id).toBe(result.revertEntry.id)
    // Back to the very first version, then the restore itself undone from the timeline.
    expect((await restoreSkillVersion(core, 'deploy', created)).ok).toBe(true)
    expect(readFileSync(path, 'utf8')).toBe(v1)
    const undo = await core.revert(core.ledger.forSkill('deploy')[0].id)
    expect(undo.ok).toBe(true)
    expect(readFileSync(path, 'utf8')).toBe(v2)
  })

  it('refuses a row of another skill, a missing row, and a version the file already has, writing nothing', async () => {
    const { edited, path } = await history()
    await core.skills.create({ name: 'other', content: skillText('other') }, agent)
    const otherRow = core.ledger.forSkill('other')[0].id
    const before = core.ledger.list({ limit: 100 }).length
    expect(await restoreSkillVersion(core, 'deploy', otherRow)).toMatchObject({ ok: false, error: expect.stringMatching(/skill 'other', not to skill 'deploy'/) })
    expect(await restoreSkillVersion(core, 'deploy', 9999)).toMatchObject({ ok: false, code: 'not_found' })
    await core.memory.add('memory', 'A fact', { write: agent })
    const memoryRow = core.ledger.list({ limit: 1 })[0].id
    expect(await restoreSkillVersion(core, 'deploy', memoryRow)).toMatchObject({ ok: false, error: expect.stringMatching(/memories\/MEMORY\.md/) })
    expect(await restoreSkillVersion(core, 'deploy', edited)).toMatchObject({ ok: false, error: expect.stringMatching(/already reads/) })
    expect(core.ledger.list({ limit: 100 }).length).toBe(before + 1) // only the memory add
    expect(readFileSync(path, 'utf8')).toBe(v3)
  })

  it('a delete row restores the archived folder; an edit row of a deleted skill brings it back with that text', async () => {
    const { patched, path } = await history()
    await core.skills.writeFile({ name: 'deploy', file_path: 'references/hosts.md', file_content: 'web-01\n' }, agent)
    expect((await core.skills.delete({ name: 'deploy' }, agent)).success).toBe(true)
    const deleted = core.ledger.forSkill('deploy')[0]
    expect(deleted.kind).toBe('skill.delete')
    const back = await restoreSkillVersion(core, 'deploy', deleted.id)
    expect(back.ok).toBe(true)
    expect(readFileSync(path, 'utf8')).toBe(v3)
    expect(readFileSync(join(dirname(path), 'references', 'hosts.md'), 'utf8')).toBe('web-01\n')

    expect((await core.skills.delete({ name: 'deploy' }, agent)).success).toBe(true)
    expect(existsSync(path)).toBe(false)
    const recreated = await restoreSkillVersion(core, 'deploy', patched)
    expect(recreated).toMatchObject({ ok: true, revertEntry: { kind: 'skill.create', source: 'user', after: v2 } })
    expect(readFileSync(path, 'utf8')).toBe(v2)
  })

  it('restores a supporting file as a row left it, removed files included', async () => {
    await history()
    await core.skills.writeFile({ name: 'deploy', file_path: 'references/hosts.md', file_content: 'web-01\n' }, agent)
    const first = core.ledger.forSkill('deploy')[0].id
    await core.skills.writeFile({ name: 'deploy', file_path: 'references/hosts.md', file_content: 'web-01\nweb-02\n' }, agent)
    await core.skills.removeFile({ name: 'deploy', file_path: 'references/hosts.md' }, agent)
    const removed = core.ledger.forSkill('deploy')[0].id
    const file = join(dirname(core.skills.get('deploy')!.path), 'references', 'hosts.md')
    expect(await restoreSkillVersion(core, 'deploy', first)).toMatchObject({ ok: true, revertEntry: { kind: 'skill.file_write', source: 'user' } })
    expect(readFileSync(file, 'utf8')).toBe('web-01\n')
    expect(await restoreSkillVersion(core, 'deploy', removed)).toMatchObject({ ok: true, revertEntry: { kind: 'skill.file_remove', source: 'user' } })
    expect(existsSync(file)).toBe(false)
  })
})

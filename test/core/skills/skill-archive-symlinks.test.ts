import { mkdirSync, readdirSync, readFileSync, renameSync, symlinkSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { skillEnv, skillText, withDeploy } from '../../helpers/skill-env'

/** skills/.archive replaced by a symlink to a folder elsewhere. */
function linkArchive(env: ReturnType<typeof skillEnv>): string {
  const elsewhere = join(env.outside, 'archive')
  mkdirSync(elsewhere)
  symlinkSync(elsewhere, join(env.paths.skillsDir, '.archive'))
  return elsewhere
}

describe('the skills archive reached through a symlink', () => {
  it('refuses a delete when .archive is a symlink, and moves nothing', async () => {
    const env = skillEnv()
    const dir = await withDeploy(env)
    const elsewhere = linkArchive(env)
    const rowsBefore = env.ledger.list({ limit: 100 }).length

    const result = await env.manage({ action: 'delete', name: 'deploy' })
    expect(result.success).toBe(false)
    expect(result.error).toMatch(/\.archive is a symlink.*never moves skills through a symlink/)
    expect(readdirSync(elsewhere)).toEqual([])
    expect(readFileSync(join(dir, 'SKILL.md'), 'utf8')).toBe(skillText('deploy'))
    expect(env.ledger.list({ limit: 100 })).toHaveLength(rowsBefore)
    expect(env.store.get('deploy')).toBeTruthy()
  })

  it('refuses to revert a create (which archives the skill) through a linked .archive', async () => {
    const env = skillEnv()
    await env.manage({ action: 'create', name: 'fresh', content: skillText('fresh') })
    const created = env.ledger.list({ limit: 1 })[0]
    const elsewhere = linkArchive(env)
    const result = await env.store.revertChange(created)
    expect(result).toMatchObject({ ok: false, error: expect.stringMatching(/\.archive is a symlink/) })
    expect(readdirSync(elsewhere)).toEqual([])
    expect(readFileSync(join(env.paths.skillsDir, 'fresh', 'SKILL.md'), 'utf8')).toBe(skillText('fresh'))
  })

  it('refuses to restore a deleted skill out of an archive that became a symlink', async () => {
    const env = skillEnv()
    await withDeploy(env)
    await env.manage({ action: 'delete', name: 'deploy' })
    const deleted = env.ledger.list({ limit: 1 })[0]
    const archive = join(env.paths.skillsDir, '.archive')
    const elsewhere = join(env.outside, 'archive')
    renameSync(archive, elsewhere)
    symlinkSync(elsewhere, archive)
    const result = await env.store.revertChange(deleted)
    expect(result).toMatchObject({ ok: false, error: expect.stringMatching(/\.archive is a symlink/) })
    expect(readdirSync(elsewhere)).toHaveLength(1)
    expect(env.store.get('deploy')).toBeFalsy()
  })
})

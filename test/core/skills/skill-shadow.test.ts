import { existsSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { put, skillEnv as setup, skillText } from '../../helpers/skill-env'

const importing = { source: 'import' as const, reviewId: 'import:1' }

describe("a data home copy of a skill Cairn reads from a read-only root (an import's shadowReadOnly)", () => {
  it('is refused without the option, and the model cannot ask for it', async () => {
    const env = setup()
    put(env.extra, 'vendor/SKILL.md', skillText('vendor'))
    env.load()
    expect((await env.store.create({ name: 'vendor', content: skillText('vendor') }, importing)).error).toMatch(/already exists .*read-only folder/)
    const byModel = await env.manage({ action: 'create', name: 'vendor', content: skillText('vendor'), shadowReadOnly: true })
    expect(byModel.success).toBe(false)
    expect(env.store.get('vendor')).toMatchObject({ readOnly: true })
    expect(existsSync(join(env.paths.skillsDir, 'vendor'))).toBe(false)
  })

  it('shadows the read-only skill in the index, keeps its usage figures, takes the edits, and deleting it shows the read-only one again', async () => {
    const env = setup()
    const readOnlyPath = put(env.extra, 'vendor/SKILL.md', skillText('vendor'))
    env.load()
    expect((await env.view({ name: 'vendor' })).success).toBe(true)
    const figures = env.store.getUsage('vendor')!
    expect(figures.viewCount).toBeGreaterThan(0)

    const created = await env.store.create({ name: 'vendor', category: 'tools', content: skillText('vendor'), shadowReadOnly: true }, importing)
    expect(created.success).toBe(true)
    const copy = join(env.paths.skillsDir, 'tools', 'vendor', 'SKILL.md')
    expect(env.store.get('vendor')).toMatchObject({ path: copy, readOnly: false, category: 'tools' })
    expect(env.store.list().filter((skill) => skill.name === 'vendor')).toHaveLength(1)
    expect(env.store.getUsage('vendor')).toMatchObject({ viewCount: figures.viewCount, useCount: figures.useCount, createdBy: 'import' })
    // A fresh scan (the next start) agrees: the data home wins.
    env.load()
    expect(env.store.get('vendor')).toMatchObject({ path: copy, readOnly: false })

    expect((await env.manage({ action: 'patch', name: 'vendor', old_string: 'Check', new_string: 'Verify' })).success).toBe(true)
    expect(readFileSync(copy, 'utf8')).toContain('Verify')
    expect(readFileSync(readOnlyPath, 'utf8')).toBe(skillText('vendor'))

    expect((await env.manage({ action: 'delete', name: 'vendor' })).success).toBe(true)
    expect(env.store.get('vendor')).toMatchObject({ path: readOnlyPath, readOnly: true })
    expect(readFileSync(readOnlyPath, 'utf8')).toBe(skillText('vendor'))
  })
})

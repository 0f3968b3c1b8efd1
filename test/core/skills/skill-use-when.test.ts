import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { skillEnv as setup, skillText } from '../../helpers/skill-env'
import { parseFrontmatter } from '../../../electron/core/skills/skill-file'

/** The one call the warning names, as a model that copies it would send it (filling the placeholder). */
function fixCallFrom(warning: string, situation: string): { old_string: string; new_string: string } {
  const match = /old_string=("(?:[^"\\]|\\.)*"), new_string="((?:[^"\\]|\\.)*)"/.exec(warning)
  if (!match) throw new Error(`no fix call in: ${warning}`)
  return { old_string: JSON.parse(match[1]) as string, new_string: JSON.parse(`"${match[2]}"`).replace('<the situation or request>', situation) }
}

describe('skill descriptions that say when to use the skill ("Use when …")', () => {
  it('keeps a created skill whose description does not say when, and warns with the one patch that fixes it', async () => {
    const env = setup()
    const created = await env.manage({ action: 'create', name: 'deploy-service', content: skillText('deploy-service', 'Build, push and roll out with helm.') })
    expect(created.success).toBe(true) // never lost over its wording
    const warning = (created.warnings as string[]).find((text) => text.includes('does not say when'))
    expect(warning).toBeDefined()

    // A model making one call per response: the fix is exactly one call, with no skill_view first.
    const fixed = await env.manage({ action: 'patch', name: 'deploy-service', ...fixCallFrom(warning!, 'deploying a service to the cluster') })
    expect(fixed).toMatchObject({ success: true })
    expect(env.store.get('deploy-service')?.description).toBe('Use when deploying a service to the cluster. Build, push and roll out with helm.')
  })

  it('says nothing about a description that already says when', async () => {
    const env = setup()
    const created = await env.manage({ action: 'create', name: 'deploy-service', content: skillText('deploy-service', 'Use when deploying a service to the cluster.') })
    expect(created.success).toBe(true)
    expect(JSON.stringify(created.warnings ?? [])).not.toContain('does not say when')
  })

  it('holds only skill_manage to it: a skill written by hand or imported stays as it is, a valid Agent Skill', async () => {
    const env = setup()
    const result = await env.store.create({ name: 'helm-notes', content: skillText('helm-notes', 'Helm notes.') }, { source: 'user' })
    expect(result.success).toBe(true)
    expect(JSON.stringify(result)).not.toContain('does not say when')
    const saved = parseFrontmatter(readFileSync(join(env.paths.skillsDir, 'helm-notes', 'SKILL.md'), 'utf8'))
    expect(saved.ok && saved.data.description).toBe('Helm notes.')
  })
})

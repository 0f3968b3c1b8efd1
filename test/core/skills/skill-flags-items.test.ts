import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { composeSystemPrompt } from '../../../electron/core/agent/prompt-context'
import { relevantSkills } from '../../../electron/core/agent/skill-hints'
import { indexSkills } from '../../../electron/core/agent/skills-index'
import { CairnCore } from '../../../electron/core/cairn'
import { ConfigStore } from '../../../electron/core/config/config-store'
import { skillItem, skillItems } from '../../../electron/core/skills/skill-items'
import { put, skillText } from '../../helpers/skill-env'

let home: string
let extra: string
let core: CairnCore

beforeEach(async () => {
  home = mkdtempSync(join(tmpdir(), 'cairn-flags-'))
  extra = mkdtempSync(join(tmpdir(), 'cairn-flags-extra-'))
  put(extra, 'shared/team-wiki/SKILL.md', skillText('team-wiki', 'Find pages in the team wiki'))
  await new ConfigStore(join(home, 'config.json')).update({ skills: { extraDirs: [extra] } })
  core = await CairnCore.open({ home })
})
afterEach(async () => {
  await core.close()
  rmSync(home, { recursive: true, force: true })
  rmSync(extra, { recursive: true, force: true })
})

const prompt = () => composeSystemPrompt(core, new Set(core.learningTools().map((tool) => tool.name)), '/tmp/workspace')

describe('disabling and pinning skills', () => {
  it('a disabled skill leaves the index and the hints but keeps its files, history and skill_view', async () => {
    const text = skillText('deploy-helm', 'Deploy the kubernetes cluster with helm charts')
    expect((await core.skills.create({ name: 'deploy-helm', category: 'ops', content: text }, { source: 'agent' })).success).toBe(true)
    const message = 'deploy the kubernetes cluster with helm please'
    expect(prompt()).toContain('deploy-helm')
    expect(relevantSkills(message, indexSkills(core)).map((s) => s.name)).toEqual(['deploy-helm'])

    core.skillFlags.set('deploy-helm', { disabled: true })
    expect(prompt()).not.toContain('deploy-helm')
    expect(prompt()).toContain('team-wiki')
    expect(relevantSkills(message, indexSkills(core))).toEqual([])
    const skill = core.skills.get('deploy-helm')!
    expect(existsSync(skill.path)).toBe(true)
    expect(core.ledger.forSkill('deploy-helm')).toHaveLength(1)
    const view = core.skills.view('deploy-helm')
    expect(view).toMatchObject({ success: true, content: text, disabled: true })
    expect(String(view.disabled_note)).toMatch(/disabled/)

    core.skillFlags.set('deploy-helm', { disabled: false })
    expect(prompt()).toContain('deploy-helm')
    expect(core.skills.view('deploy-helm').disabled).toBeUndefined()
  })

  it('a read-only skill can be disabled too', () => {
    core.skillFlags.set('team-wiki', { disabled: true })
    expect(prompt()).not.toContain('team-wiki')
    expect(core.skills.view('team-wiki')).toMatchObject({ success: true, disabled: true })
  })
})

describe('skill items', () => {
  it('say who made each skill, its flags, and what a strict Agent Skills client rejects', async () => {
    await core.skills.create({ name: 'by-review', content: skillText('by-review') }, { source: 'review', reviewId: 'r1' })
    await core.skills.create({ name: 'by-user', content: skillText('by-user') }, { source: 'user' })
    await core.skills.create({ name: 'imported', content: skillText('imported') }, { source: 'import' })
    await core.skills.create({ name: 'edited-by-hand', content: skillText('edited-by-hand') }, { source: 'agent' })
    writeFileSync(core.skills.get('edited-by-hand')!.path, skillText('edited-by-hand', 'How to edited-by-hand', '# Mine now\n'))
    // Written elsewhere with a name another client rejects (underscore, differs from the folder).
    put(join(home, 'skills'), 'odd_folder/SKILL.md', '---\nname: Odd Name\ndescription: An odd one\n---\nBody\n')
    core.skills.load()
    core.skillFlags.set('by-user', { pinned: true })

    const items = new Map(skillItems(core).map((item) => [item.name, item]))
    expect(items.get('by-review')).toMatchObject({ madeBy: 'cairn', pinned: false, disabled: false, specIssues: [] })
    expect(items.get('by-user')).toMatchObject({ madeBy: 'user', pinned: true })
    expect(items.get('imported')).toMatchObject({ madeBy: 'import' })
    expect(items.get('edited-by-hand')).toMatchObject({ madeBy: 'user' })
    expect(items.get('team-wiki')).toMatchObject({ madeBy: 'external', readOnly: true })
    const odd = items.get('odd_folder')!
    expect(odd.madeBy).toBe('user')
    expect(odd.specIssues.join('\n')).toMatch(/Odd Name/)
    expect(odd.specIssues.length).toBeGreaterThanOrEqual(2)
    expect(skillItem(core, 'by-user')).toEqual(items.get('by-user'))
    expect(skillItem(core, 'nope')).toBeNull()
  })
})

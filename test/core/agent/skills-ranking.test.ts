import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { composeSystemPrompt } from '../../../electron/core/agent/prompt-context'
import { relevantSkills } from '../../../electron/core/agent/skill-hints'
import { indexSkills, renderSkillsIndex } from '../../../electron/core/agent/skills-index'
import { CairnCore } from '../../../electron/core/cairn'
import { ConfigStore } from '../../../electron/core/config/config-store'

const homes: string[] = []
const cores: CairnCore[] = []
afterEach(async () => {
  for (const core of cores.splice(0)) await core.close()
  for (const home of homes.splice(0)) rmSync(home, { recursive: true, force: true })
})

/** A core over a data home holding `count` skills in one category, with ~70-character descriptions. */
async function coreWithSkills(count: number, budget = 3000): Promise<CairnCore> {
  const home = mkdtempSync(join(tmpdir(), 'cairn-rank-'))
  homes.push(home)
  await new ConfigStore(join(home, 'config.json')).update({ skills: { extraDirs: [], indexTokenBudget: budget } })
  for (let i = 0; i < count; i++) {
    const name = `task-${String(i).padStart(3, '0')}`
    const dir = join(home, 'skills', 'ops', name)
    mkdirSync(dir, { recursive: true })
    writeFileSync(join(dir, 'SKILL.md'), `---\nname: ${name}\ndescription: How to carry out operations task number ${i} with checks and a rollback\n---\n# ${name}\n`)
  }
  const core = await CairnCore.open({ home })
  cores.push(core)
  return core
}

const described = (text: string) => new Set([...text.matchAll(/^ {2}- ([\w.-]+): /gm)].map((match) => match[1]))

function promptOf(core: CairnCore): string {
  return composeSystemPrompt(core, new Set(core.learningTools().map((tool) => tool.name)), '/tmp/workspace')
}

describe('ranking skills by how well they work', () => {
  it('a skill that keeps failing loses its description to one that works when the budget cuts; one never judged sits between', async () => {
    const core = await coreWithSkills(150, 1500)
    // Both followed as often; only the verdicts differ.
    for (let i = 0; i < 6; i++) {
      core.skills.recordUse('task-010', 'failure')
      core.skills.recordUse('task-140', 'success')
    }
    const index = renderSkillsIndex(indexSkills(core), 1500)
    expect(index.mode).toBe('names')
    const kept = described(index.text)
    // The budget cuts: some descriptions go.
    expect(kept.size).toBeLessThan(100)
    // The one that works keeps its description although its name sorts late …
    expect(kept.has('task-140')).toBe(true)
    // … skills never judged keep theirs before the one that keeps failing, which sorts early but loses it.
    expect(kept.has('task-000')).toBe(true)
    expect(kept.has('task-011')).toBe(true)
    expect(kept.has('task-010')).toBe(false)
    expect(index.text).toMatch(/task-010/)
  })

  it('a failing skill drops out of the short list of a tight budget too', async () => {
    const core = await coreWithSkills(150, 200)
    core.skills.recordUse('task-001', 'failure')
    core.skills.recordUse('task-001', 'failure')
    core.skills.recordUse('task-002', 'success')
    core.skills.recordUse('task-003')
    const index = renderSkillsIndex(indexSkills(core), 200)
    expect(index.mode).toBe('categories')
    const kept = described(index.text)
    expect(kept.size).toBeLessThan(20)
    expect(kept.has('task-002')).toBe(true)
    expect(kept.has('task-003')).toBe(true)
    expect(kept.has('task-000')).toBe(true)
    expect(kept.has('task-001')).toBe(false)
  })

  it('renders the same bytes for the same figures, whenever it is rendered', async () => {
    const core = await coreWithSkills(150)
    core.skills.recordUse('task-007', 'success')
    core.skills.recordView('task-008')
    const first = promptOf(core)
    const again = promptOf(core)
    expect(again).toBe(first)
    // Reordered input (another scan order) gives the same index.
    const skills = indexSkills(core)
    expect(renderSkillsIndex([...skills].reverse(), 3000).text).toBe(renderSkillsIndex(skills, 3000).text)
    expect(first).not.toMatch(/\d{4}-\d{2}-\d{2}T/)
  })

  it('hints the skill that works when two match a message equally, and never a disabled one', async () => {
    const home = mkdtempSync(join(tmpdir(), 'cairn-hints-'))
    homes.push(home)
    await new ConfigStore(join(home, 'config.json')).update({ skills: { extraDirs: [] } })
    const core = await CairnCore.open({ home })
    cores.push(core)
    for (const name of ['deploy-blue', 'deploy-green', 'rotate-logs']) {
      const description = name === 'rotate-logs' ? 'Rotate and compress the log files' : 'Deploy the kubernetes cluster with helm charts'
      const made = await core.skills.create({ name, content: `---\nname: ${name}\ndescription: ${description}\n---\n# ${name}\n` }, { source: 'user' })
      expect(made.success).toBe(true)
    }
    const message = 'How do I deploy the kubernetes cluster with helm?'
    const names = () => relevantSkills(message, indexSkills(core), 1).map((skill) => skill.name)
    expect(names()).toEqual(['deploy-blue'])
    core.skills.recordUse('deploy-blue', 'failure')
    core.skills.recordUse('deploy-green', 'success')
    expect(names()).toEqual(['deploy-green'])
    core.skillFlags.set('deploy-green', { disabled: true })
    expect(names()).toEqual(['deploy-blue'])
    core.skillFlags.set('deploy-blue', { disabled: true })
    expect(names()).toEqual([])
  })
})

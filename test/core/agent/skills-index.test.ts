import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { composeSystemPrompt, indexSkills } from '../../../electron/core/agent/prompt-context'
import { renderSkillsIndex, type IndexSkill } from '../../../electron/core/agent/skills-index'
import { estimateTokens } from '../../../electron/core/provider/tokens'
import { CairnCore } from '../../../electron/core/cairn'
import { ConfigStore } from '../../../electron/core/config/config-store'
import type { ConfigPatch } from '../../../shared/config'
import { haveSharedData, skillCorpusDir } from '../../helpers/shared-data'

/** The real Hermes skills (see NOTICE.md there): upstream's skills/ and optional-skills/ trees. */
const corpus = skillCorpusDir

const homes: string[] = []
const cores: CairnCore[] = []

afterEach(async () => {
  for (const core of cores.splice(0)) await core.close()
  for (const home of homes.splice(0)) rmSync(home, { recursive: true, force: true })
})

/** A core over a fresh data home whose settings are in place before it opens (extra skill roots are read at open). */
async function openCore(config: ConfigPatch = {}, prepare?: (home: string) => void): Promise<CairnCore> {
  const home = mkdtempSync(join(tmpdir(), 'cairn-'))
  homes.push(home)
  await new ConfigStore(join(home, 'config.json')).update({ skills: { extraDirs: [] }, ...config })
  prepare?.(home)
  const core = await CairnCore.open({ home })
  cores.push(core)
  return core
}

function promptOf(core: CairnCore): string {
  const toolNames = new Set(core.learningTools().map((tool) => tool.name))
  return composeSystemPrompt(core, toolNames, '/tmp/workspace')
}

const CATEGORIES = Array.from({ length: 30 }, (_, i) => `cat-${String(i).padStart(2, '0')}`)
const VERBS = ['deploy', 'backup', 'lint', 'profile', 'migrate', 'rotate', 'index', 'render']

/** 1000 skills over 30 categories, with realistic (~70 char) descriptions. */
function generatedSkills(count = 1000): IndexSkill[] {
  return Array.from({ length: count }, (_, i) => ({
    name: `${VERBS[i % VERBS.length]}-task-${i}`,
    description: `How to ${VERBS[i % VERBS.length]} the service number ${i} safely, with checks and rollback`,
    category: CATEGORIES[i % CATEGORIES.length]
  }))
}

function writeSkillTree(root: string, skills: IndexSkill[]): void {
  for (const skill of skills) {
    const dir = join(root, skill.category ?? '', skill.name)
    mkdirSync(dir, { recursive: true })
    writeFileSync(join(dir, 'SKILL.md'), `---\nname: ${skill.name}\ndescription: ${skill.description}\n---\n\n# ${skill.name}\n\n1. Check.\n2. Do it.\n`)
  }
}

describe.skipIf(!haveSharedData(corpus, 'the skills index for the real corpus'))('the skills index for the real corpus', () => {
  const corpusConfig: ConfigPatch = { skills: { extraDirs: [join(corpus, 'skills'), join(corpus, 'optional-skills')] } }

  it('fits the default 3,000-token budget, names every skill and says it dropped some descriptions', async () => {
    const core = await openCore(corpusConfig)
    const budget = core.config.get().skills.indexTokenBudget
    expect(budget).toBe(3000)
    const skills = indexSkills(core)
    expect(skills.length).toBeGreaterThan(150)
    expect(skills.every((skill) => skill.readOnly)).toBe(true)

    // Every skill with its description would be just over the budget …
    const unlimited = renderSkillsIndex(skills, 1_000_000)
    expect(unlimited.mode).toBe('full')
    expect(unlimited.tokens).toBeGreaterThan(budget)
    // … so the index keeps every name, and descriptions for as many as fit.
    const index = renderSkillsIndex(skills, budget)
    expect(index.mode).toBe('names')
    expect(index.tokens).toBeLessThanOrEqual(budget)
    expect(index.tokens).toBe(estimateTokens(index.text))
    expect(index.listed).toBe(skills.length)
    for (const skill of skills) expect(index.text).toMatch(new RegExp(`(^|[ ,])${skill.name.replace(/[.]/g, '\\.')}(:|,|$)`, 'm'))
    const described = index.text.split('\n').filter((line) => line.startsWith('  - '))
    // Descriptions are shown up to 120 characters (room for a "Use when …" sentence), so fewer fit than at Hermes's 60.
    expect(described.length).toBeGreaterThan(skills.length * 0.6)
    expect(described.length).toBeLessThan(skills.length)

    // The system prompt carries exactly this index.
    const prompt = promptOf(core)
    expect(prompt).toContain(`## Skills index\n<available_skills>\n${index.text}\n</available_skills>`)
  })

  it('keeps the description of a skill the user actually uses', async () => {
    const core = await openCore(corpusConfig)
    const before = renderSkillsIndex(indexSkills(core), 3000)
    const undescribed = indexSkills(core).find((skill) => !before.text.includes(`  - ${skill.name}: `))!
    expect(undescribed).toBeDefined()
    for (let i = 0; i < 3; i++) core.skills.recordView(undescribed.name)
    const after = renderSkillsIndex(indexSkills(core), 3000)
    expect(after.text).toContain(`  - ${undescribed.name}: `)
    expect(after.tokens).toBeLessThanOrEqual(3000)
  })

  it('lists every description when skills.indexTokenBudget allows it', async () => {
    const core = await openCore({ skills: { ...corpusConfig.skills, indexTokenBudget: 5000 } })
    const prompt = promptOf(core)
    const block = /<available_skills>\n([\s\S]*)\n<\/available_skills>/.exec(prompt)![1]
    expect(block.split('\n').filter((line) => line.startsWith('  - '))).toHaveLength(indexSkills(core).length)
  })
})

describe('the skills index for a large catalogue', () => {
  it('fits 1000 skills in 30 categories, keeping the most used skills with their descriptions', async () => {
    const skills = generatedSkills()
    const core = await openCore({}, (home) => writeSkillTree(join(home, 'skills'), skills))
    const favourites = ['deploy-task-0', 'rotate-task-517', 'render-task-999', 'lint-task-250', 'migrate-task-84']
    favourites.forEach((name, i) => {
      for (let n = 0; n < 10 - i; n++) core.skills.recordUse(name)
    })
    expect(core.skills.list()).toHaveLength(1000)

    const index = renderSkillsIndex(indexSkills(core), 3000)
    expect(index.mode).toBe('categories')
    expect(index.tokens).toBeLessThanOrEqual(3000)
    for (const category of CATEGORIES) expect(index.text).toMatch(new RegExp(`^${category}: 3[34] skills`, 'm'))
    for (const name of favourites) expect(index.text).toMatch(new RegExp(`^  - ${name}: How to \\w+ the service number`, 'm'))
    expect(index.listed).toBeGreaterThan(favourites.length)
    expect(index.text).toContain('call skills_list with a category')
    expect(promptOf(core)).toContain(`<available_skills>\n${index.text}\n</available_skills>`)
  })

  it('lists every name (descriptions for the most used) when the names fit but descriptions do not', () => {
    const skills = generatedSkills(250).map((skill, i) => ({ ...skill, useCount: i === 200 ? 9 : i === 17 ? 4 : 0 }))
    const index = renderSkillsIndex(skills, 3000)
    expect(index.mode).toBe('names')
    expect(index.tokens).toBeLessThanOrEqual(3000)
    for (const skill of skills) expect(index.text).toContain(skill.name)
    const described = index.text.split('\n').filter((line) => line.startsWith('  - '))
    expect(described[0]).toBeDefined()
    expect(index.text).toMatch(/^  - deploy-task-200: /m)
    expect(index.text).toMatch(/^  - backup-task-17: /m)
    expect(described.length).toBeLessThan(skills.length)
  })

  it('holds the budget however many categories there are', () => {
    const nested = generatedSkills().map((skill, i) => ({ ...skill, category: `team-${i % 100}/area-${i % 7}` }))
    const flat = generatedSkills().map((skill, i) => ({ ...skill, category: `area-${i}` }))
    for (const budget of [200, 1000, 3000]) {
      for (const catalogue of [generatedSkills(), nested, flat]) {
        const index = renderSkillsIndex(catalogue, budget)
        expect(index.tokens).toBeLessThanOrEqual(budget)
        expect(index.text).toContain('call skills_list')
      }
    }
    // 700 nested categories fold into their 100 top folders, which skills_list accepts as a category.
    const folded = renderSkillsIndex(nested, 3000)
    expect(folded.text).toMatch(/^team-42: 10 skills/m)
    expect(folded.text).not.toContain('/area-')
    // 1000 categories of one skill: the most used skills, as many categories as fit, a count of the rest.
    const used = flat.map((skill, i) => ({ ...skill, useCount: i === 700 ? 5 : i === 3 ? 2 : 0 }))
    const cut = renderSkillsIndex(used, 3000)
    expect(cut.tokens).toBeLessThanOrEqual(3000)
    expect(cut.text).toMatch(/^Most used:\n  - migrate-task-700: How to migrate the service number 700.*\n  - profile-task-3: /m)
    expect(cut.listed).toBe(2)
    expect(cut.text).toMatch(/^area-0: 1 skill$/m)
    expect(cut.text).toMatch(/^\(\d+ more categories not shown\.\)$/m)
  })

  it('renders nothing for an empty catalogue, and the prompt has no index', async () => {
    expect(renderSkillsIndex([], 3000)).toEqual({ text: '', tokens: 0, mode: 'full', listed: 0 })
    const core = await openCore()
    expect(core.skills.list()).toEqual([])
    const prompt = promptOf(core)
    expect(prompt).not.toContain('<available_skills>')
    expect(prompt).not.toContain('## Skills index')
  })
})

describe('descriptions in the index', () => {
  const deploy: IndexSkill = {
    name: 'deploy-service',
    category: 'devops',
    description: 'Builds the image, pushes it to the registry and rolls it out with helm, then checks the pods. Use when deploying a service to the cluster.'
  }

  it('shows a "Use when …" sentence whole, first, even when the description puts it last', () => {
    const index = renderSkillsIndex([deploy], 3000)
    const line = index.text.split('\n').find((text) => text.startsWith('  - deploy-service: '))!
    expect(line).toMatch(/^ {2}- deploy-service: Use when deploying a service to the cluster\. Builds the image/)
    expect(line.length - '  - deploy-service: '.length).toBeGreaterThan(60) // not Hermes's 60 characters any more
    expect(line.length - '  - deploy-service: '.length).toBeLessThanOrEqual(120)
  })

  it('is byte-stable: the same catalogue renders the same index', () => {
    const other: IndexSkill = { name: 'backup-db', category: 'devops', description: 'Use when backing up the Postgres database before a migration.' }
    expect(renderSkillsIndex([deploy, other], 3000).text).toBe(renderSkillsIndex([other, { ...deploy }], 3000).text)
  })
})

/**
 * Size and speed of the skills index in the system prompt. For each catalogue: the index's tokens
 * (Cairn's estimate, the one the budget uses), the mode it degraded to, how many skills it names or
 * describes, the whole system prompt's tokens, and render times (first call, then the median of
 * repeated calls; `composeMs` includes reading memory and per-skill usage from SQLite).
 *
 * Catalogues: the real Hermes corpus (skills/ + optional-skills/ as read-only extra roots), 1000
 * generated skills in 30 categories on disk (a few marked as used), and 1000 skills in 1000
 * categories (the last-resort cut). Budget: the default `skills.indexTokenBudget` (3000).
 *
 *   npx tsx test/bench/index.ts [corpus-dir]
 */
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { performance } from 'node:perf_hooks'
import { composeSystemPrompt, indexSkills } from '../../electron/core/agent/prompt-context'
import { renderSkillsIndex, type IndexSkill } from '../../electron/core/agent/skills-index'
import { estimateTokens } from '../../electron/core/provider/tokens'
import { CairnCore } from '../../electron/core/cairn'
import { ConfigStore } from '../../electron/core/config/config-store'
import { createWorkspaceTools } from '../../electron/core/workspace'
import { skillCorpusDir } from '../helpers/shared-data'

// shared/ sits beside the repository (in CI too).
const corpus = process.argv[2] ?? skillCorpusDir
const REPEATS = 20
const VERBS = ['deploy', 'backup', 'lint', 'profile', 'migrate', 'rotate', 'index', 'render']

interface Figures {
  skills: number
  categories: number
  budget: number
  mode: string
  indexTokens: number
  listed: number
  described: number
  systemPromptTokens: number
  renderMsFirst: number
  renderMsMedian: number
  composeMsMedian: number
}

function generated(categoryOf: (i: number) => string): IndexSkill[] {
  return Array.from({ length: 1000 }, (_, i) => ({
    name: `${VERBS[i % VERBS.length]}-task-${i}`,
    description: `How to ${VERBS[i % VERBS.length]} the service number ${i} safely, with checks and rollback`,
    category: categoryOf(i)
  }))
}

function writeSkillTree(root: string, skills: IndexSkill[]): void {
  for (const skill of skills) {
    const dir = join(root, skill.category ?? '', skill.name)
    mkdirSync(dir, { recursive: true })
    writeFileSync(join(dir, 'SKILL.md'), `---\nname: ${skill.name}\ndescription: ${skill.description}\n---\n\n# ${skill.name}\n\n1. Check.\n2. Do it.\n`)
  }
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b)
  return sorted[Math.floor(sorted.length / 2)]
}

const ms = (value: number) => Math.round(value * 100) / 100

async function measure(extraDirs: string[], prepare?: (home: string) => void, used: string[] = []): Promise<Figures> {
  const home = mkdtempSync(join(tmpdir(), 'cairn-bench-index-'))
  let core: CairnCore | null = null
  try {
    await new ConfigStore(join(home, 'config.json')).update({ skills: { extraDirs } })
    prepare?.(home)
    core = await CairnCore.open({ home })
    used.forEach((name, i) => {
      for (let n = 0; n < used.length - i; n++) core!.skills.recordUse(name)
    })
    const budget = core.config.get().skills.indexTokenBudget
    const skills = indexSkills(core)
    let started = performance.now()
    const index = renderSkillsIndex(skills, budget)
    const renderMsFirst = performance.now() - started
    const renders: number[] = []
    for (let i = 0; i < REPEATS; i++) {
      started = performance.now()
      renderSkillsIndex(skills, budget)
      renders.push(performance.now() - started)
    }
    const toolNames = new Set([...core.learningTools(), ...createWorkspaceTools()].map((tool) => tool.name))
    const composes: number[] = []
    let prompt = ''
    for (let i = 0; i < REPEATS; i++) {
      started = performance.now()
      prompt = composeSystemPrompt(core, toolNames, home)
      composes.push(performance.now() - started)
    }
    return {
      skills: skills.length,
      categories: new Set(skills.map((skill) => skill.category)).size,
      budget,
      mode: index.mode,
      indexTokens: index.tokens,
      listed: index.listed,
      described: index.text.split('\n').filter((line) => line.startsWith('  - ')).length,
      systemPromptTokens: estimateTokens(prompt),
      renderMsFirst: ms(renderMsFirst),
      renderMsMedian: ms(median(renders)),
      composeMsMedian: ms(median(composes))
    }
  } finally {
    await core?.close()
    rmSync(home, { recursive: true, force: true })
  }
}

async function main(): Promise<void> {
  const report: Record<string, Figures | string> = {}
  report.corpus = existsSync(corpus)
    ? await measure([join(corpus, 'skills'), join(corpus, 'optional-skills')])
    : `skipped: no corpus at ${corpus}`
  const favourites = ['deploy-task-0', 'rotate-task-517', 'render-task-999', 'lint-task-250', 'migrate-task-84']
  report.generated1000In30Categories = await measure(
    [],
    (home) => writeSkillTree(join(home, 'skills'), generated((i) => `cat-${String(i % 30).padStart(2, '0')}`)),
    favourites
  )
  report.generated1000In1000Categories = await measure([], (home) => writeSkillTree(join(home, 'skills'), generated((i) => `area-${i}`)), favourites)
  console.log(JSON.stringify(report, null, 2))
}

main().catch((error: unknown) => {
  console.error(error)
  process.exit(1)
})

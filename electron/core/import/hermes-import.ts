import { existsSync, statSync } from 'node:fs'
import { homedir } from 'node:os'
import { join, resolve } from 'node:path'
import type { CairnCore } from '../cairn'
import { importHermesSessions } from './hermes-sessions'
import { ImportBatches } from './import-batches'
import { applyMemoryPlan, countMemoryPlan, planMemoryMerge } from './memory-merge'
import { applySkillPlan, countSkillPlan, findSourceSkills, planSkill } from './skill-import'
import { emptyCounts, importReviewId, type ImportProgress, type ImportReport } from './types'

/** Hermes's home: `$HERMES_HOME`, else `~/.hermes`. */
export function defaultHermesHome(env: NodeJS.ProcessEnv): string {
  return env.HERMES_HOME || join(env.HOME || homedir(), '.hermes')
}

/** A path that is not a Hermes home (nothing to import from), with what was looked for. */
export class ImportSourceError extends Error {
  constructor(message: string) {
    super(message)
    this.name = 'ImportSourceError'
  }
}

export interface HermesImportOptions {
  /** Hermes's home folder. */
  path: string
  /** Report what would come in; write nothing (not even the batch row). */
  dryRun?: boolean
  onProgress?: (progress: ImportProgress) => void
}

/**
 * Brings a Hermes home into Cairn as one batch: `memories/MEMORY.md` and `USER.md` merged into Cairn's,
 * `skills/` as Agent Skills, past conversations from `state.db`. Every write is attributed to the
 * batch (ledger source `import`, review id `import:<id>`), so `undoImport` can take it back whole.
 * What is malformed is reported by file (and line) and the rest still comes in.
 */
export async function importHermes(core: CairnCore, options: HermesImportOptions): Promise<ImportReport> {
  const home = resolve(options.path)
  const parts = { memories: join(home, 'memories'), skills: join(home, 'skills'), stateDb: join(home, 'state.db') }
  if (!existsSync(home) || !statSync(home).isDirectory()) throw new ImportSourceError(`There is no Hermes home at ${home}.`)
  if (!Object.values(parts).some((path) => existsSync(path))) {
    throw new ImportSourceError(`${home} does not look like a Hermes home: it has no memories/, skills/ or state.db.`)
  }
  const dryRun = options.dryRun ?? false
  const batches = new ImportBatches(core.db)
  const importId = dryRun ? null : batches.start('hermes', home)
  const reviewId = importId === null ? '' : importReviewId(importId)
  const counts = emptyCounts()
  const report: ImportReport = { importId, source: 'hermes', path: home, dryRun, counts, problems: [] }
  const { problems } = report
  const { memory } = core.config.get()
  try {
    for (const target of ['memory', 'user'] as const) {
      const plan = planMemoryMerge(core, home, target)
      if (!plan) continue
      const off = target === 'memory' ? !memory.enabled : !memory.userProfileEnabled
      if (off) {
        problems.push({ file: plan.file, message: `not imported: ${target === 'memory' ? 'memory (MEMORY.md)' : 'the user profile (USER.md)'} is turned off in Cairn's settings.` })
        continue
      }
      if (importId === null) countMemoryPlan(core, plan, counts, problems)
      else await applyMemoryPlan(core, plan, reviewId, counts, problems)
    }
    const skills = findSourceSkills(home, parts.skills)
    for (const [index, skill] of skills.entries()) {
      options.onProgress?.({ phase: 'skills', done: index, total: skills.length })
      const plan = planSkill(core, skill)
      if (importId === null) countSkillPlan(core, plan, counts, problems)
      else await applySkillPlan(core, plan, reviewId, counts, problems)
    }
    if (existsSync(parts.stateDb)) importHermesSessions(core, parts.stateDb, { importId, counts, problems, onProgress: options.onProgress })
  } finally {
    if (importId !== null) batches.finish(importId, counts, problems)
  }
  return report
}

import type { ErrorKey, ErrorParamsByKey } from '../../../shared/error-keys'
import { KeyedError } from '../../../shared/keyed-error'
import { existsSync, statSync } from 'node:fs'
import { homedir } from 'node:os'
import { join, resolve } from 'node:path'
import type { ImportHome } from './import-home'
import { SkillUsageStore } from '../skills/skill-usage'
import { importHermesSessions } from './hermes-sessions'
import { hasUsage, readHermesUsage } from './hermes-usage'
import { importMemoryPlan, importSkills, runImportBatch } from './import-run'
import { planMemoryMerge } from './memory-merge'
import { findSourceSkills } from './skill-import'
import type { ImportProgress, ImportReport } from './types'

/** Hermes's home: `$HERMES_HOME`, else `~/.hermes`. */
export function defaultHermesHome(env: NodeJS.ProcessEnv): string {
  return env.HERMES_HOME || join(env.HOME || homedir(), '.hermes')
}

/** A path that is not a Hermes home (nothing to import from), with what was looked for. */
export class ImportSourceError<K extends ImportSourceErrorKey = ImportSourceErrorKey> extends KeyedError<K> {
  constructor(key: K, params: ErrorParamsByKey[K]) {
    super(key, params)
    this.name = 'ImportSourceError'
  }
}

type ImportSourceErrorKey = Extract<ErrorKey, `import.${string}`>

export interface HermesImportOptions {
  /** Hermes's home folder. */
  path: string
  /** Report what would come in; write nothing (not even the batch row). */
  dryRun?: boolean
  onProgress?: (progress: ImportProgress) => void
}

/**
 * Brings a Hermes home into Cairn as one batch: `memories/MEMORY.md` and `USER.md` merged into Cairn's,
 * `skills/` as Agent Skills (with the usage figures of `skills/.usage.json`), past conversations from `state.db`. Every write is attributed to the
 * batch (ledger source `import`, review id `import:<id>`), so `undoImport` can take it back whole.
 * What is malformed is reported by file (and line) and the rest still comes in.
 */
export async function importHermes(core: ImportHome, options: HermesImportOptions): Promise<ImportReport> {
  const home = resolve(options.path)
  const parts = { memories: join(home, 'memories'), skills: join(home, 'skills'), stateDb: join(home, 'state.db') }
  if (!existsSync(home) || !statSync(home).isDirectory()) throw new ImportSourceError('import.no_hermes_home', { path: home })
  if (!Object.values(parts).some((path) => existsSync(path))) {
    throw new ImportSourceError('import.not_hermes_home', { path: home })
  }
  return runImportBatch(core, { source: 'hermes', path: home, dryRun: options.dryRun, onProgress: options.onProgress }, async (run) => {
    for (const target of ['memory', 'user'] as const) {
      const plan = planMemoryMerge(core, home, target)
      if (plan) await importMemoryPlan(run, plan)
    }
    const usage = readHermesUsage(home, run.problems)
    const usageStore = new SkillUsageStore(core.db)
    await importSkills(run, findSourceSkills(home, parts.skills), (skill) => {
      const figures = usage.get(skill.name)
      if (!figures || !hasUsage(figures)) return
      if (run.importId !== null) usageStore.seedImported(skill.name, figures)
      run.counts.skills.usage++
    })
    if (existsSync(parts.stateDb)) {
      importHermesSessions(core, parts.stateDb, { importId: run.importId, counts: run.counts, problems: run.problems, onProgress: options.onProgress })
    }
  })
}

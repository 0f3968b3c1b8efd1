import type { ImportHome } from './import-home'
import type { MemoryTarget } from '../memory/types'
import { ImportBatches } from './import-batches'
import { applyMemoryPlan, countMemoryPlan, type MemoryPlan } from './memory-merge'
import { applySkillPlan, countSkillPlan, planSkill, type SourceSkill } from './skill-import'
import { emptyCounts, importReviewId, nothingNew, type ImportCounts, type ImportProblem, type ImportProgress, type ImportReport, type ImportSource } from './types'

/** One import under way: where its writes are attributed, and what it has counted so far. */
export interface ImportRun {
  core: ImportHome
  /** Null on a dry run, which writes nothing. */
  importId: number | null
  /** `import:<id>`, the review id every write of the batch carries. */
  reviewId: string
  counts: ImportCounts
  problems: ImportProblem[]
  onProgress?: (progress: ImportProgress) => void
}

/**
 * Runs `body` as one batch: the `imports` row is started first and finished with the counts and
 * problems even when `body` throws, so whatever it wrote can still be undone as a whole. A dry run
 * starts no row, and a batch that brought nothing new keeps none (its report says `nothingNew`).
 */
export async function runImportBatch(
  core: ImportHome,
  options: { source: ImportSource; path: string; dryRun?: boolean; onProgress?: (progress: ImportProgress) => void },
  body: (run: ImportRun) => Promise<void>
): Promise<ImportReport> {
  const dryRun = options.dryRun ?? false
  const batches = new ImportBatches(core.db)
  const importId = dryRun ? null : batches.start(options.source, options.path)
  const counts = emptyCounts()
  const report: ImportReport = { importId, source: options.source, path: options.path, dryRun, counts, problems: [] }
  const run: ImportRun = { core, importId, reviewId: importId === null ? '' : importReviewId(importId), counts, problems: report.problems, onProgress: options.onProgress }
  try {
    await body(run)
  } catch (error) {
    // Whatever it wrote before failing stays undoable as a whole.
    if (importId !== null) batches.finish(importId, counts, report.problems)
    throw error
  }
  if (importId !== null && !batches.finishOrDrop(importId, counts, report.problems)) return nothingNew(report)
  return report
}

/** Why nothing may come into a store (it is turned off in Cairn's settings), or null. */
export function storeOffProblem(core: ImportHome, target: MemoryTarget): string | null {
  const { memory } = core.config.get()
  // Project memory is on with MEMORY.md (the prompt leaves both out when memory is off).
  if (target === 'user' ? memory.userProfileEnabled : memory.enabled) return null
  return `not imported: ${target === 'user' ? 'the user profile (USER.md)' : 'memory (MEMORY.md)'} is turned off in Cairn's settings.`
}

/** Brings one memory plan in (or counts it on a dry run), unless that store is turned off in Cairn's settings. */
export async function importMemoryPlan(run: ImportRun, plan: MemoryPlan): Promise<void> {
  const off = storeOffProblem(run.core, plan.target)
  if (off) {
    run.problems.push({ file: plan.file, message: off })
    return
  }
  if (run.importId === null) countMemoryPlan(run.core, plan, run.counts, run.problems)
  else await applyMemoryPlan(run.core, plan, run.reviewId, run.counts, run.problems)
}

/**
 * Brings skills in one by one (or counts them on a dry run). `created` hears of each skill that was
 * (or, on a dry run, would be) created, so an importer can bring what else it knows of it.
 */
export async function importSkills(run: ImportRun, skills: SourceSkill[], created?: (skill: SourceSkill) => void): Promise<void> {
  for (const [index, skill] of skills.entries()) {
    run.onProgress?.({ phase: 'skills', done: index, total: skills.length })
    const plan = planSkill(run.core, skill)
    const made = run.importId === null ? countSkillPlan(run.core, plan, run.counts, run.problems) : await applySkillPlan(run.core, plan, run.reviewId, run.counts, run.problems)
    if (made) created?.(skill)
  }
}

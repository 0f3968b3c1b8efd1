import { statSync } from 'node:fs'
import type { SkillSummary } from './skill-index'
import type { SkillStore } from './skill-store'

export const DAY_MS = 24 * 60 * 60 * 1000

export interface SkillStats {
  useCount: number
  viewCount: number
  /** Last time the skill was viewed or followed (ms), null if never. */
  lastUsedAt: number | null
  /** Share of judged uses that worked, null before the first verdict. */
  successRate: number | null
  successCount: number
  failureCount: number
  patchCount: number
  createdBy: string | null
  /** Not used for `skills.staleAfterDays` (counting from its last use, creation or file change). Never deleted for it. */
  stale: boolean
}

export type SkillWithStats = SkillSummary & { stats: SkillStats }

/** What the figures are read from: the skill store and the stale setting. */
export interface SkillStatsSource {
  skills: Pick<SkillStore, 'list' | 'getUsage'>
  config: { get(): { skills: { staleAfterDays: number } } }
}

/** Every skill with its usage figures and stale mark, for `cairn skills` and the app's skill browser. */
export function skillsWithStats(core: SkillStatsSource, now = Date.now()): SkillWithStats[] {
  return core.skills.list().map((skill) => skillWithStats(core, skill, now))
}

/** One skill with its usage figures and stale mark. */
export function skillWithStats(core: Pick<SkillStatsSource, 'config'> & { skills: Pick<SkillStore, 'getUsage'> }, skill: SkillSummary, now = Date.now()): SkillWithStats {
  const staleAfterMs = core.config.get().skills.staleAfterDays * DAY_MS
  const usage = core.skills.getUsage(skill.name)
  const lastUsedAt = maxOrNull(usage?.lastUsedAt, usage?.lastViewedAt)
  const judged = (usage?.successCount ?? 0) + (usage?.failureCount ?? 0)
  const since = maxOrNull(lastUsedAt, usage?.createdAt, fileTime(skill.path)) ?? now
  return {
    ...skill,
    stats: {
      useCount: usage?.useCount ?? 0,
      viewCount: usage?.viewCount ?? 0,
      lastUsedAt,
      successRate: judged ? (usage!.successCount / judged) : null,
      successCount: usage?.successCount ?? 0,
      failureCount: usage?.failureCount ?? 0,
      patchCount: usage?.patchCount ?? 0,
      createdBy: usage?.createdBy ?? null,
      stale: now - since > staleAfterMs
    }
  }
}

/** z for a 95% interval. */
const Z = 1.96

/**
 * How well a skill works, for ranking: the Wilson lower bound of its success rate over its verdicts,
 * counted with one success and one failure more. The extra pair keeps a skill with no verdicts
 * in the middle (below one that worked, above one that failed) instead of burying it at zero, and
 * the lower bound makes a long record count for more than one lucky run.
 */
export function successScore(successCount: number, failureCount: number): number {
  const n = successCount + failureCount + 2
  const p = (successCount + 1) / n
  const z2 = Z * Z
  return (p + z2 / (2 * n) - Z * Math.sqrt((p * (1 - p)) / n + z2 / (4 * n * n))) / (1 + z2 / n)
}

function maxOrNull(...values: Array<number | null | undefined>): number | null {
  const present = values.filter((v): v is number => typeof v === 'number')
  return present.length ? Math.max(...present) : null
}

function fileTime(path: string): number | null {
  try {
    return statSync(path).mtimeMs
  } catch {
    return null
  }
}

import { existsSync } from 'node:fs'
import { join } from 'node:path'
import type { ImportedSkillUsage } from '../skills/skill-usage'
import { readSourceText } from './memory-merge'
import type { ImportProblem } from './types'

/** Hermes's usage sidecar (`tools/skill_usage.py`): one record per skill name, beside the skills. */
export const HERMES_USAGE_FILE = 'skills/.usage.json'

/** The figures of one Hermes skill that Cairn counts too (times in epoch milliseconds). */
export type HermesSkillUsage = ImportedSkillUsage

/**
 * Reads `<home>/skills/.usage.json` (Hermes writes `{name: {use_count, view_count, patch_count,
 * last_used_at, last_viewed_at, …}}`, times as ISO strings). A missing file is no usage; a file that is
 * not that JSON is a problem and the skills come in without figures. A field that is not a count or a
 * time is ignored, the rest of its record kept.
 */
export function readHermesUsage(home: string, problems: ImportProblem[]): Map<string, HermesSkillUsage> {
  const usage = new Map<string, HermesSkillUsage>()
  const path = join(home, HERMES_USAGE_FILE)
  if (!existsSync(path)) return usage
  const read = readSourceText(path, HERMES_USAGE_FILE)
  if ('problem' in read) {
    problems.push({ ...read.problem, message: read.problem.message.replace('nothing in it came in', 'the skills came in without their usage figures') })
    return usage
  }
  let data: unknown
  try {
    data = JSON.parse(read.text)
  } catch (error) {
    problems.push({ file: HERMES_USAGE_FILE, message: `is not valid JSON (${(error as Error).message}); the skills came in without their usage figures.` })
    return usage
  }
  if (!isRecord(data)) {
    problems.push({ file: HERMES_USAGE_FILE, message: 'is not a JSON object of skill names; the skills came in without their usage figures.' })
    return usage
  }
  for (const [name, record] of Object.entries(data)) {
    if (!isRecord(record)) continue
    usage.set(name, {
      viewCount: countOf(record.view_count),
      useCount: countOf(record.use_count),
      patchCount: countOf(record.patch_count),
      lastViewedAt: timeOf(record.last_viewed_at),
      lastUsedAt: timeOf(record.last_used_at)
    })
  }
  return usage
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}

function countOf(value: unknown): number {
  return typeof value === 'number' && Number.isInteger(value) && value > 0 ? value : 0
}

function timeOf(value: unknown): number | null {
  if (typeof value !== 'string') return null
  const at = Date.parse(value)
  return Number.isFinite(at) ? at : null
}

/** Whether a record holds anything worth keeping (Hermes makes an all-zero record on first touch). */
export function hasUsage(usage: HermesSkillUsage): boolean {
  return usage.viewCount + usage.useCount + usage.patchCount > 0 || usage.lastUsedAt !== null || usage.lastViewedAt !== null
}

import type { Ledger } from '../ledger/ledger'
import type { SkillFlags } from './skill-flags'
import { currentSkillText } from './skill-items'
import { skillMadeBy } from './skill-origin'
import { DAY_MS } from './skill-stats'
import type { SkillStore } from './skill-store'

/** What the archiver reads and writes through. */
export interface SkillArchiveSource {
  skills: Pick<SkillStore, 'list' | 'getUsage' | 'delete'>
  skillFlags: Pick<SkillFlags, 'get'>
  ledger: Pick<Ledger, 'forSkill'>
  config: { get(): { skills: { archiveAfterDays: number } } }
}

export interface ArchivedSkill {
  name: string
  category: string | null
  /** Where the folder went, relative to the data home (`skills/.archive/<name>-<time>`). */
  archivePath: string
  /** The last use, view, creation or change that counted (ms). */
  lastActiveAt: number
}

export interface SkillArchiveReport {
  archived: ArchivedSkill[]
  /** Skills that qualified but could not be moved (a lock held elsewhere, a symlinked archive folder). */
  failed: Array<{ name: string; error: string }>
}

/**
 * Moves the skills Cairn made itself that nobody used for `skills.archiveAfterDays` (0 = never) into
 * `skills/.archive/`, through the store's delete, so each move is a `skill.delete` row (source
 * `review`, no review id) that the timeline's revert restores. Never touches a skill the user wrote,
 * edited or pinned, an imported one, or one in a read-only folder; never deletes anything. Activity is
 * the newest of the last use, the last view, the creation and the newest ledger row (a restore counts,
 * so a skill brought back is not archived again at the next start).
 */
export async function archiveUnusedSkills(source: SkillArchiveSource, options: { now?: number } = {}): Promise<SkillArchiveReport> {
  const report: SkillArchiveReport = { archived: [], failed: [] }
  const days = source.config.get().skills.archiveAfterDays
  if (days <= 0) return report
  const cutoff = (options.now ?? Date.now()) - days * DAY_MS
  const candidates = source.skills
    .list()
    // Pinned or disabled: the user decided about it, so tidying leaves it where it is.
    .filter((skill) => !skill.readOnly && !source.skillFlags.get(skill.name).pinned && !source.skillFlags.get(skill.name).disabled)
    .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))
  for (const skill of candidates) {
    const history = source.ledger.forSkill(skill.name)
    const usage = source.skills.getUsage(skill.name)
    const madeBy = skillMadeBy({ readOnly: false, history, createdBy: usage?.createdBy ?? null, currentText: currentSkillText(skill) })
    if (madeBy !== 'cairn') continue
    const times = [usage?.lastUsedAt, usage?.lastViewedAt, usage?.createdAt, history[0] ? Date.parse(history[0].at) : null]
    const known = times.filter((time): time is number => typeof time === 'number' && Number.isFinite(time))
    // No date at all says nothing about disuse: leave it.
    if (known.length === 0) continue
    const lastActiveAt = Math.max(...known)
    if (lastActiveAt >= cutoff) continue
    const result = await source.skills.delete({ name: skill.name }, { source: 'review', reviewId: null })
    if (result.success && typeof result.archive_path === 'string') {
      report.archived.push({ name: skill.name, category: skill.category, archivePath: result.archive_path, lastActiveAt })
    } else if (!result.success) {
      report.failed.push({ name: skill.name, error: result.error })
    }
  }
  return report
}

/**
 * {@link archiveUnusedSkills} on the next turn of the event loop, so whoever starts it (the app, at
 * start) is never held up. `cancel` stops it if it has not started; `settled` is its report, or null
 * when it was cancelled or failed (a failure is handed to `onError`).
 */
export function archiveUnusedSkillsSoon(
  source: SkillArchiveSource,
  onError: (error: unknown) => void = (error) => console.error('cairn: archiving unused skills failed:', error)
): { settled: Promise<SkillArchiveReport | null>; cancel(): void } {
  let cancel = (): void => {}
  const start = new Promise<boolean>((resolve) => {
    const timer = setTimeout(() => resolve(true), 0)
    cancel = () => {
      clearTimeout(timer)
      resolve(false)
    }
  })
  const settled = start
    .then((go) => (go ? archiveUnusedSkills(source) : null))
    .catch((error: unknown) => {
      onError(error)
      return null
    })
  return { settled, cancel: () => cancel() }
}

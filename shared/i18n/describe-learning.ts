import type { ReviewSummary, StoreChanges } from '../review-outcome'
import type { Translate } from './index'

/**
 * What a review learned, one line per change, in the user's language: the memory entries it wrote
 * and removed, then each skill with its description (new) or the gist of the change (patched), e.g.
 * `Remembered: User uses pnpm, never npm` and `Skill node-project-setup: 2. Install with pnpm install`.
 * Empty when it saved nothing; a summary recorded before summaries carried words says which memory
 * file changed instead of the entries.
 */
export function describeLearned(summary: ReviewSummary, t: Translate): string[] {
  if (!summary.saved) return []
  const lines: string[] = []
  for (const entry of summary.remembered ?? []) lines.push(t('learned.remembered', { text: entry.text }))
  for (const entry of summary.forgotten ?? []) lines.push(t('learned.forgotten', { text: entry.text }))
  if (!summary.remembered && !summary.forgotten) {
    // Recorded before summaries carried the entries' text (or a replace whose new text is unknown): say which file changed.
    if (touched(summary.memory)) lines.push(t('review.memory'))
    if (touched(summary.user)) lines.push(t('review.user'))
    if (summary.project && touched(summary.project)) lines.push(t('review.project'))
  }
  for (const skill of summary.skills) {
    const name = skill.name
    if (skill.verb === 'deleted') lines.push(t('learned.skillDeleted', { name }))
    else if (skill.verb === 'created') {
      lines.push(skill.description ? t('learned.skillCreated', { name, description: skill.description }) : t('learned.skillCreatedPlain', { name }))
    } else if (skill.gist?.added) lines.push(t('learned.skillChanged', { name, change: skill.gist.added }))
    else if (skill.gist?.removed) lines.push(t('learned.skillChangedRemoved', { name, change: skill.gist.removed }))
    else lines.push(t('learned.skillUpdated', { name }))
  }
  return lines
}

/** The lines a face shows for a finished review: what it learned, or "Nothing worth keeping." */
export function describeLearnedOrNothing(summary: ReviewSummary, t: Translate): string[] {
  const lines = describeLearned(summary, t)
  return lines.length ? lines : [t('learned.nothing')]
}

function touched(changes: StoreChanges): boolean {
  return changes.added + changes.replaced + changes.removed > 0
}

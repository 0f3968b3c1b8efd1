import type { Translate } from './index'
import type { ReviewFate } from '../review-fate'

/** The counts a note words, in the order a combined phrase names them. */
const PARTS = ['applied', 'pending', 'rejected', 'setAside', 'undone'] as const
type Part = (typeof PARTS)[number]

/** The counts of a fate that are not zero, in phrase order. */
function nonZero(fate: ReviewFate): Part[] {
  return PARTS.filter((part) => fate[part] > 0)
}

/** The user decided some of its proposals, or some of its changes were reverted since. */
export function fateMoved(fate: ReviewFate | undefined): fate is ReviewFate {
  return Boolean(fate && fate.approved + fate.rejected + fate.setAside + fate.undone > 0)
}

/** "2 applied, 1 rejected": each count that is not zero, in a short phrase (no full stop). */
export function fateParts(fate: ReviewFate, t: Translate): string {
  return nonZero(fate)
    .map((part) => t(`chat.learnedFate.part.${part}`, { count: fate[part] }))
    .join(t('chat.learnedFate.separator'))
}

/**
 * What became of a review's changes, as one sentence: one outcome said in full ("1 change is
 * applied.", "You rejected this change.", "2 changes were undone."), several in a combined phrase.
 * Null while nothing has happened to them (the note reads as it did when the review ended).
 */
export function describeFate(fate: ReviewFate | undefined, t: Translate): string | null {
  if (!fateMoved(fate)) return null
  const parts = nonZero(fate)
  if (parts.length !== 1) return t('chat.learnedFate.combined', { parts: fateParts(fate, t) })
  const [only] = parts
  if (only === 'pending') return null
  return t(`chat.learnedFate.${only}`, { count: fate[only] })
}

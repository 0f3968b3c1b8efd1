import type { Translate } from '../../../../shared/i18n'
import { describeReviewFailure } from '../../../../shared/i18n/describe-review-failure'
import type { CurationEnding } from '../../stores/curation'

/** How a curation pass ended, in the window's language: "Tidied: 3 proposals to review.", "Nothing to tidy…", or why it failed. */
export function curationEndingText(ending: CurationEnding, t: Translate): string {
  if (ending.kind === 'failed') return t('curation.failed', { reason: describeReviewFailure(ending.failure, t) })
  if (ending.kind === 'nothing') return t('curation.nothing')
  return t('curation.proposed', { count: ending.count })
}

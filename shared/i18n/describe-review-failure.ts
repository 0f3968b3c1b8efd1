import { parseReviewFailure, type ReviewFailure } from '../review-failures'
import { translate, type Language, type Translate } from './index'

/** Why a review did not finish, in the user's language; the worker's own words as written. */
export function describeReviewFailure(failure: ReviewFailure, t: Translate): string {
  switch (failure.code) {
    case 'other':
      return failure.text
    case 'worker_gone':
      return failure.pid === null ? t('reviewFailure.worker_gone.noPid') : t('reviewFailure.worker_gone', { pid: failure.pid })
    case 'worker_killed':
    case 'worker_exited':
      return t(`reviewFailure.${failure.code}`, { ...failure, reported: failure.reported ? ` ${failure.reported}` : '' })
    default:
      return t(`reviewFailure.${failure.code}`, { ...failure })
  }
}

/** A stored or reported failure (English, see review-failures.ts), first line, in the user's language. */
export function describeReviewError(error: string, t: Translate): string {
  return describeReviewFailure(parseReviewFailure(error), t)
}

/** The English the host writes into `review_runs.error` and `review_failed` events. */
export function reviewFailureText(failure: ReviewFailure, language: Language = 'en'): string {
  return describeReviewFailure(failure, (key, params) => translate(language, key, params))
}

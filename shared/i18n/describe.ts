import type { ConnectionTest } from '../ipc/domain'
import type { ReviewSummary, StoreChanges } from '../review-outcome'
import type { ReviewsPausedReason } from '../review-protocol'
import type { ReviewReason } from '../review-reasons'
import type { MessageKey, Translate } from './index'

/**
 * Words for what the core reports as data, shared by every face (renderer, CLI, tray) so each says
 * the same thing in the user's language.
 */

/** One line about what a review saved, e.g. `Memory updated · Skill "deploy" created`; null if it saved nothing. */
export function describeReviewSummary(summary: ReviewSummary, t: Translate): string | null {
  if (!summary.saved) return null
  const parts: string[] = []
  if (touched(summary.memory)) parts.push(t('review.memory'))
  if (touched(summary.user)) parts.push(t('review.user'))
  for (const skill of summary.skills) parts.push(t(`review.skill.${skill.verb}`, { name: skill.name }))
  return parts.length ? parts.join(t('review.separator')) : null
}

function touched(changes: StoreChanges): boolean {
  return changes.added + changes.replaced + changes.removed > 0
}

/** Why a review ran, in the user's language; a reason this version does not know is shown as written. */
export function describeReviewReason(parsed: ReviewReason, t: Translate): string {
  switch (parsed.code) {
    case 'memory_interval':
    case 'skill_interval':
    case 'long_task':
      return t(`reason.${parsed.code}`, { count: parsed.count })
    case 'error_overcome':
      return t('reason.error_overcome', { tool: parsed.tool })
    case 'compression':
      return parsed.part !== null && parsed.parts !== null ? t('reason.compressionPart', { part: parsed.part, parts: parsed.parts }) : t('reason.compression')
    case 'other':
      return parsed.text
    default:
      return t(`reason.${parsed.code}`)
  }
}

/** Why background learning is paused, in the user's language. */
export function describePauseReason(reason: ReviewsPausedReason, t: Translate): string {
  return reason.code === 'failures' ? t('learning.paused.failures', { count: reason.count, latest: reason.latest }) : t('learning.paused.requested')
}

/** What a connection test found, e.g. `Connected to https://…: 3 models available.` */
export function describeConnectionTest(test: ConnectionTest, t: Translate): string {
  const key: MessageKey = `connection.${test.code}`
  return t(key, { baseURL: test.baseURL, count: test.models.length, model: test.model ?? '', status: test.status ?? '?' })
}

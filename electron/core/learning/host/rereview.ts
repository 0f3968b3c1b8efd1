import type { Proposal } from '../../../../shared/proposals'
import { queueCuration } from './curation-schedule'
import type { LearningLoop } from './learning-loop'
import type { LearningState } from './learning-state'
import type { ReviewHost } from './review-host'

export interface RereviewDeps {
  loop: Pick<LearningLoop, 'reviewNow'>
  host: Pick<ReviewHost, 'enqueue'>
  state: Pick<LearningState, 'set'>
  sessionExists: (sessionId: string) => boolean
}

/**
 * Queues the review that looks again at what a superseded proposal wanted: its conversation reviewed
 * again (as if the user asked), or a curation pass for what curation proposed. Null when there is
 * nothing left to review (the conversation was deleted).
 */
export function queueRereview(proposal: Pick<Proposal, 'origin' | 'sessionId'>, deps: RereviewDeps): string | null {
  if (proposal.origin === 'curation') return queueCuration(deps.host, deps.state)
  if (proposal.sessionId && deps.sessionExists(proposal.sessionId)) return deps.loop.reviewNow(proposal.sessionId)
  return null
}

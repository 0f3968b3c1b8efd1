import type { AgentEvent } from '../../../../shared/agent-events'
import type { ReviewEvent } from '../../../../shared/review-protocol'
import type { AppFixture } from '../../../helpers/app-fixture'
import { until } from '../../../helpers/review-fixture'

export { TestClock } from '../../../helpers/test-clock'

/** Sends a message as the window does and waits until the turn has ended and the conversation settled. */
export async function say(app: AppFixture, sessionId: string | null, text: string): Promise<string> {
  const settled = () => app.events.filter((e) => e.name === 'chat.status' && !(e.payload as { running: boolean }).running).length
  const before = settled()
  const sent = await app.ok('chat.send', { sessionId, text })
  await until(() => settled() > before, 'the turn to settle')
  return sent.sessionId
}

/** Answers every approval the chats ask for with "allow once", as a user clicking through would. */
export function approveEverything(app: AppFixture): () => void {
  return app.app.events.on((event) => {
    if (event.name !== 'chat.event') return
    const agentEvent = event.payload as AgentEvent
    if (agentEvent.type === 'approval_needed') void app.app.chats.approve(agentEvent.sessionId, agentEvent.requestId, { allow: true })
  })
}

export function reviewEvents(app: AppFixture): ReviewEvent[] {
  return app.events.filter((e) => e.name === 'review.event').map((e) => e.payload as ReviewEvent)
}

export function queuedReviews(app: AppFixture): Array<Extract<ReviewEvent, { type: 'review_queued' }>> {
  return reviewEvents(app).filter((e): e is Extract<ReviewEvent, { type: 'review_queued' }> => e.type === 'review_queued')
}

export function finishedReviews(app: AppFixture): Array<Extract<ReviewEvent, { type: 'review_finished' }>> {
  return reviewEvents(app).filter((e): e is Extract<ReviewEvent, { type: 'review_finished' }> => e.type === 'review_finished')
}

import type { ReviewKind } from '../../../shared/review-protocol'
import type { ReviewReason } from '../../../shared/review-reasons'
import type { AgentHooks, CompressionEvent, TurnSummary } from '../agent/agent-session'
import { orderForModel } from '../sessions/stored-messages'
import type { CairnCore } from '../cairn'
import type { MessageRecord } from '../sessions'
import type { ReviewHost } from './review-host'
import { chunkReviewMessages, skillsUsedIn, toReviewMessages } from './review-snapshot'
import { evaluateTurn, restoreCounters, type TriggerSettings } from './triggers'

const STATE_KEY = 'learning'

/**
 * Connects chat sessions to the background review: after every turn it updates the session's
 * counters and, when the triggers say so, queues a review of the conversation; before a context
 * compression it queues a review of the part about to be summarised, so nothing is lost.
 */
export class LearningLoop {
  readonly hooks: AgentHooks

  constructor(
    private readonly core: CairnCore,
    private readonly host: ReviewHost
  ) {
    this.hooks = {
      onTurnFinished: (summary) => this.afterTurn(summary),
      beforeCompression: (event) => this.beforeCompression(event)
    }
    // The worker wrote skill files from another process: re-read those skills now rather than wait
    // for the watcher, so the very next session's skills index already has them. Only those: this
    // runs on the app's main thread, and a rescan of every skill root would block it.
    host.events.on((event) => {
      if (event.type !== 'review_finished') return
      const changed = event.outcome.entries.filter((entry) => entry.kind.startsWith('skill.')).map((entry) => entry.target)
      if (changed.length > 0) this.core.skills.refreshPaths(changed)
    })
  }

  /** Queues a review of a session right now (the user asked for it). Returns the review id. */
  reviewNow(sessionId: string, kinds: ReviewKind[] = ['memory', 'skills']): string {
    return this.enqueue(sessionId, this.liveMessages(sessionId), kinds, [{ code: 'requested' }])
  }

  private afterTurn(turn: TurnSummary): void {
    const session = this.core.sessions.get(turn.sessionId)
    if (!session) return
    const settings = this.settings()
    const records = this.core.sessions.messages(turn.sessionId)
    // Counters from before this turn: stored ones, or rebuilt from the earlier user messages.
    const userMessagesBefore = records.filter((r) => r.role === 'user').length - 1
    const previous = restoreCounters(session.state[STATE_KEY], Math.max(0, userMessagesBefore), settings)
    const decision = evaluateTurn(previous, turn, settings)
    this.core.sessions.update(turn.sessionId, { state: { ...session.state, [STATE_KEY]: decision.counters } })
    if (decision.kinds.length) this.enqueue(turn.sessionId, orderForModel(records), decision.kinds, decision.reasons)
  }

  /**
   * Reviews every part of what is about to be condensed, in chunks a review can read, each kept apart
   * from other triggers so no later snapshot replaces it.
   */
  private beforeCompression(event: CompressionEvent): void {
    if (!this.core.config.get().learning.enabled) return
    const chunks = chunkReviewMessages(event.messages)
    const skillsUsed = skillsUsedIn(event.messages)
    chunks.forEach((messages, i) => {
      this.host.enqueue(
        {
          sessionId: event.sessionId,
          kinds: ['memory', 'skills'],
          reasons: [{ code: 'compression', part: chunks.length > 1 ? i + 1 : null, parts: chunks.length > 1 ? chunks.length : null }],
          messages,
          skillsUsed
        },
        { coalesce: false }
      )
    })
  }

  private enqueue(sessionId: string, records: MessageRecord[], kinds: ReviewKind[], reasons: ReviewReason[]): string {
    return this.host.enqueue({
      sessionId,
      kinds,
      reasons,
      messages: toReviewMessages(records),
      skillsUsed: skillsUsedIn(records)
    })
  }

  private liveMessages(sessionId: string): MessageRecord[] {
    return orderForModel(this.core.sessions.messages(sessionId))
  }

  private settings(): TriggerSettings {
    const config = this.core.config.get()
    return {
      enabled: config.learning.enabled,
      memoryNudgeInterval: config.learning.memoryNudgeInterval,
      skillNudgeInterval: config.learning.skillNudgeInterval,
      memoryAvailable: config.memory.enabled || config.memory.userProfileEnabled,
      skillsAvailable: true
    }
  }
}

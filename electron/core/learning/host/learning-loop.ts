import type { ReviewKind, ReviewMessage } from '../../../../shared/review-protocol'
import type { ReviewReason, SessionEndCause } from '../../../../shared/review-reasons'
import type { AgentHooks, CompressionEvent, TurnSummary } from '../../agent/agent-session'
import { orderForModel } from '../../sessions/stored-messages'
import type { SettingsStore } from '../../config/config-store'
import type { StateDb } from '../../db/state-db'
import type { MessageRecord, SessionStore } from '../../sessions'
import type { SkillStore } from '../../skills'
import { importedThrough } from './imported-mark'
import { LearningState, MEMORY_TURNS_KEY } from './learning-state'
import { joinOthers, unreviewedConversations, withOtherConversations, type OtherConversation } from './other-conversations'
import type { ReviewHost } from './review-host'
import { chunkReviewMessages, skillsUsedIn, toReviewMessages } from './review-snapshot'
import { finishedThrough, lastId, readProgress, unreviewedUserTurns, writeProgress } from './session-progress'
import { evaluateTurn, restoreSessionCounters, type TriggerSettings } from './triggers'

/** What the loop reads and marks: conversations and their progress, the data home's counters, settings, and the skill index it refreshes. */
export interface LearningLoopSources {
  config: Pick<SettingsStore, 'get'>
  db: StateDb
  sessions: Pick<SessionStore, 'get' | 'list' | 'messages' | 'setStateKey'>
  skills: Pick<SkillStore, 'refreshPaths'>
}

export interface LearningLoopOptions {
  /** The clock that says which conversations are recent (tests pass their own). */
  now?: () => number
}

/** A review about to be queued: built inside one state.db transaction, queued right after it. */
interface PlannedReview {
  kinds: ReviewKind[]
  reasons: ReviewReason[]
  messages: ReviewMessage[]
  skillsUsed: string[]
  /** The reviewed mark its digest starts from (see toReviewMessages). */
  base: number
  /** Other conversations it took in. */
  others: OtherConversation[]
}

/**
 * Connects conversations to the background review. After every turn it updates the counters (the
 * session's skill counter, the data home's memory counter) and, when the triggers say so, queues a
 * review; when a conversation ends (idle, a new one started, quit or exit) with enough turns no review
 * has seen, it queues one for those; before a context compression it queues a review of the part
 * about to be summarised. Each conversation keeps how far reviews have read it (`reviewedThrough`),
 * moved by every one of these, so the same turns are never reviewed twice in full: what was reviewed
 * before reaches the next review as a short digest. A review for memory also reads other recent
 * conversations' unreviewed turns, which is what the data home's memory counter counted.
 */
export class LearningLoop {
  readonly hooks: AgentHooks
  /** The data home's counters (`learning_state`). */
  readonly state: LearningState
  private readonly now: () => number

  constructor(
    private readonly core: LearningLoopSources,
    private readonly host: ReviewHost,
    options: LearningLoopOptions = {}
  ) {
    this.state = new LearningState(core.db)
    this.now = options.now ?? Date.now
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

  /** Queues a review of the whole of a conversation right now (the user asked for it). Returns the review id. */
  reviewNow(sessionId: string, kinds: ReviewKind[] = ['memory', 'skills']): string {
    const enabled = this.settings().enabled
    const plan = this.state.update((): PlannedReview => {
      const records = this.liveMessages(sessionId)
      // With learning off the host skips it: nothing is marked as reviewed.
      if (enabled) writeProgress(this.core.sessions, sessionId, { reviewedThrough: lastId(records) })
      if (enabled && kinds.includes('memory')) this.state.set(MEMORY_TURNS_KEY, 0)
      return { kinds, reasons: [{ code: 'requested' }], messages: toReviewMessages(records), skillsUsed: skillsUsedIn(records), base: 0, others: [] }
    })
    return this.enqueue(sessionId, plan)
  }

  /**
   * The conversation ended (`cause`): queues a review of its finished turns no review has seen, if
   * there are at least `learning.sessionEndMinTurns` of them. Returns the review id, or null when
   * there is nothing to review (too few new turns, learning off, no such conversation).
   */
  endConversation(sessionId: string, cause: SessionEndCause): string | null {
    const settings = this.settings()
    if (!settings.enabled) return null
    const minTurns = this.core.config.get().learning.sessionEndMinTurns
    const plan = this.state.update((): PlannedReview | null => {
      const session = this.core.sessions.get(sessionId)
      if (!session) return null
      const records = this.liveMessages(sessionId)
      // An imported conversation's history waits for "learn from imported conversations": only turns added here count.
      const reviewedThrough = Math.max(readProgress(session).reviewedThrough, importedThrough(this.core.db, session))
      const through = finishedThrough(records)
      if (through === null) return null
      const turns = unreviewedUserTurns(records, reviewedThrough, through)
      if (turns < minTurns) return null
      const finished = records.filter((record) => record.id <= through)
      return this.planFor(sessionId, finished, reviewedThrough, this.kindsAvailable(settings), [{ code: 'session_end', cause, turns }])
    })
    return plan ? this.enqueue(sessionId, plan) : null
  }

  private afterTurn(turn: TurnSummary): void {
    const settings = this.settings()
    const plan = this.state.update((): PlannedReview | null => {
      const session = this.core.sessions.get(turn.sessionId)
      if (!session) return null
      const records = this.core.sessions.messages(turn.sessionId)
      const progress = readProgress(session)
      // Counters from before this turn: the session's stored ones (or rebuilt from its earlier user messages) and the data home's.
      const userMessagesBefore = records.filter((r) => r.role === 'user').length - 1
      const counters = { ...restoreSessionCounters(progress.counters, Math.max(0, userMessagesBefore)), turnsSinceMemory: this.state.count(MEMORY_TURNS_KEY) }
      const decision = evaluateTurn(counters, turn, settings)
      this.state.set(MEMORY_TURNS_KEY, decision.counters.turnsSinceMemory)
      const { userTurns, itersSinceSkill } = decision.counters
      writeProgress(this.core.sessions, turn.sessionId, { counters: { userTurns, itersSinceSkill } })
      if (!decision.kinds.length) return null
      const reviewedThrough = Math.max(progress.reviewedThrough, importedThrough(this.core.db, session))
      return this.planFor(turn.sessionId, orderForModel(records), reviewedThrough, decision.kinds, decision.reasons)
    })
    if (plan) this.enqueue(turn.sessionId, plan)
  }

  /**
   * Moves the marks and builds the transcript of a review of `records` (inside the caller's
   * transaction). A review for memory resets the data home's memory counter and takes in the
   * unreviewed turns of other recent conversations, which that counter counted.
   */
  private planFor(sessionId: string, records: MessageRecord[], reviewedThrough: number, kinds: ReviewKind[], reasons: ReviewReason[]): PlannedReview {
    // The host's queue keeps what a waiting review of this session was planned from.
    const pending = this.host.queuedFor(sessionId)?.plan ?? null
    // Merging into a queued review replaces its messages: start the digest where that one started.
    const base = pending ? Math.min(pending.base, reviewedThrough) : reviewedThrough
    const found = kinds.includes('memory') ? unreviewedConversations(this.core.sessions, sessionId, this.now()) : []
    const others = joinOthers(pending?.others ?? [], found)
    const { messages, included } = withOtherConversations((maxChars) => toReviewMessages(records, maxChars, base), others)
    writeProgress(this.core.sessions, sessionId, { reviewedThrough: lastId(records) })
    for (const other of included) writeProgress(this.core.sessions, other.session.id, { reviewedThrough: other.through })
    if (kinds.includes('memory')) this.state.set(MEMORY_TURNS_KEY, 0)
    return { kinds, reasons, messages, skillsUsed: skillsUsedIn(records), base, others: included }
  }

  /**
   * Reviews every part of what is about to be condensed, in chunks a review can read, each kept apart
   * from other triggers so no later snapshot replaces it. The recent turns compression keeps are not
   * in it: they stay unreviewed, and the memory counter goes on counting.
   */
  private beforeCompression(event: CompressionEvent): void {
    if (!this.settings().enabled) return
    const chunks = chunkReviewMessages(event.messages)
    const skillsUsed = skillsUsedIn(event.messages)
    this.state.update(() => writeProgress(this.core.sessions, event.sessionId, { reviewedThrough: lastId(event.messages) }))
    chunks.forEach((messages, i) => {
      this.host.enqueue(
        {
          sessionId: event.sessionId,
          kinds: ['memory', 'skills'],
          reasons: [{ code: 'compression', part: chunks.length > 1 ? i + 1 : null, parts: chunks.length > 1 ? chunks.length : null }],
          messages,
          skillsUsed,
          ...this.workspaceOf(event.sessionId)
        },
        { coalesce: false }
      )
    })
  }

  private enqueue(sessionId: string, plan: PlannedReview): string {
    const { kinds, reasons, messages, skillsUsed, base, others } = plan
    return this.host.enqueue({ sessionId, kinds, reasons, messages, skillsUsed, ...this.workspaceOf(sessionId) }, { plan: { base, others } })
  }

  /** The conversation's workspace, for the review's project memory. */
  private workspaceOf(sessionId: string): { workspace?: string } {
    const workspace = this.core.sessions.get(sessionId)?.workspace
    return workspace ? { workspace } : {}
  }

  private liveMessages(sessionId: string): MessageRecord[] {
    return orderForModel(this.core.sessions.messages(sessionId))
  }

  private kindsAvailable(settings: TriggerSettings): ReviewKind[] {
    return settings.memoryAvailable ? ['memory', 'skills'] : ['skills']
  }

  private settings(): TriggerSettings {
    const config = this.core.config.get()
    return {
      enabled: config.learning.enabled && config.learning.mode !== 'off',
      memoryNudgeInterval: config.learning.memoryNudgeInterval,
      skillNudgeInterval: config.learning.skillNudgeInterval,
      memoryAvailable: config.memory.enabled || config.memory.userProfileEnabled,
      skillsAvailable: true
    }
  }
}

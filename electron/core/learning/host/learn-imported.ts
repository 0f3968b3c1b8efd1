import type { LearnImportedInfo } from '../../../../shared/ipc/contract-import'
import type { ReviewOutcome } from '../../../../shared/review-outcome'
import { parseReviewFailure } from '../../../../shared/review-failures'
import type { StateDb } from '../../db/state-db'
import type { SessionStore } from '../../sessions'
import type { LearningLoop } from './learning-loop'
import type { ReviewHost } from './review-host'

/** The key of `sessions.state` that says an imported conversation was learned from (`{ reviewId, at }`). */
export const IMPORT_LEARNED_KEY = 'importLearned'

/** Learning is off (`learning.enabled` false or mode `off`): nothing is queued. */
export class LearningOffError extends Error {
  constructor() {
    super('Learning is turned off, so Cairn cannot learn from imported conversations. Turn learning on in Settings → Learning first.')
    this.name = 'LearningOffError'
  }
}

/** Learning from imports is already running: one run at a time. */
export class LearnImportedBusyError extends Error {
  constructor() {
    super('Cairn is already learning from imported conversations; wait for it to finish or cancel it.')
    this.name = 'LearnImportedBusyError'
  }
}

export interface ImportedLearningDeps {
  db: StateDb
  sessions: Pick<SessionStore, 'get' | 'setStateKey'>
  /** Queues the review of a whole conversation, as "review now" does. */
  loop: Pick<LearningLoop, 'reviewNow'>
  host: Pick<ReviewHost, 'wait' | 'events'>
  /** `learning.enabled` and a mode other than `off`; read before each review. */
  learningOn: () => boolean
  /** Called with the progress whenever it moves. */
  changed?: (progress: LearnImportedInfo) => void
  now?: () => number
}

interface QueuedConversation {
  id: string
  title: string | null
}

/** Imported sessions (of one batch, or all) with a user message that no run here has learned from yet. */
const UNREVIEWED_SQL = `
  FROM sessions s
  WHERE s.source LIKE 'import:%'
    AND (@importId IS NULL OR s.import_id = @importId)
    AND (CASE WHEN json_valid(s.state) THEN json_extract(s.state, '$.${IMPORT_LEARNED_KEY}') END) IS NULL
    AND EXISTS (SELECT 1 FROM messages m WHERE m.session_id = s.id AND m.role = 'user')`

function idle(): LearnImportedInfo {
  return {
    running: false,
    importId: null,
    total: 0,
    done: 0,
    current: null,
    changes: 0,
    proposed: 0,
    failed: 0,
    cancelRequested: false,
    stopped: null,
    lastError: null,
    lastFailure: null,
    startedAt: null,
    finishedAt: null
  }
}

/**
 * "Learn from imported conversations": reviews imported conversations (which learning otherwise
 * leaves alone) one after another, oldest first, each through the ordinary review of a whole
 * conversation, so they run under the current learning mode and take their turn with the app's other
 * reviews in the one review host. A conversation whose review finished is marked in its state and is
 * never queued again; one whose review failed is counted and stays unmarked for a later run. Cancel
 * stops once the review under way ends (it is not cut off half-written).
 */
export class ImportedLearning {
  private progress: LearnImportedInfo = idle()
  private running: Promise<LearnImportedInfo> | null = null
  private readonly now: () => number

  constructor(private readonly deps: ImportedLearningDeps) {
    this.now = deps.now ?? Date.now
  }

  status(): LearnImportedInfo {
    return { ...this.progress }
  }

  /** Imported conversations not learned from yet (of one batch, or all). */
  unreviewed(importId?: number): number {
    const row = this.deps.db.prepare(`SELECT COUNT(*) AS n ${UNREVIEWED_SQL}`).get({ importId: importId ?? null }) as { n: number }
    return row.n
  }

  /** The same, per batch (batch id → count). */
  unreviewedByBatch(): Map<number, number> {
    const rows = this.deps.db.prepare(`SELECT s.import_id AS id, COUNT(*) AS n ${UNREVIEWED_SQL} GROUP BY s.import_id`).all({ importId: null }) as Array<{ id: number | null; n: number }>
    return new Map(rows.filter((row) => row.id !== null).map((row) => [row.id as number, row.n]))
  }

  /**
   * Starts reviewing in the background and returns the progress at once; {@link finished} resolves
   * when it ends. Throws {@link LearningOffError} when learning is off, {@link LearnImportedBusyError} when a run is going.
   */
  start(importId?: number): LearnImportedInfo {
    if (this.running) throw new LearnImportedBusyError()
    if (!this.deps.learningOn()) throw new LearningOffError()
    const queue = this.deps.db
      .prepare(`SELECT s.id, s.title ${UNREVIEWED_SQL} ORDER BY s.started_at, s.id`)
      .all({ importId: importId ?? null }) as QueuedConversation[]
    this.progress = { ...idle(), running: true, importId: importId ?? null, total: queue.length, startedAt: this.now() }
    this.running = this.run(queue)
      // A closed database (the app quitting mid-run) ends the run; it never surfaces as an unhandled rejection.
      .catch((error: unknown) => {
        this.progress = { ...this.progress, ...latestError((error as Error).message) }
        return this.end(null)
      })
      .finally(() => {
        this.running = null
      })
    this.emit()
    return this.status()
  }

  /** The current run's end (the idle progress at once when none runs). */
  finished(): Promise<LearnImportedInfo> {
    return this.running ?? Promise.resolve(this.status())
  }

  /** Stops after the conversation under review; nothing further is queued. */
  cancel(): LearnImportedInfo {
    if (this.running && !this.progress.cancelRequested) {
      this.progress = { ...this.progress, cancelRequested: true }
      this.emit()
    }
    return this.status()
  }

  private async run(queue: QueuedConversation[]): Promise<LearnImportedInfo> {
    for (const conversation of queue) {
      if (this.progress.cancelRequested) return this.end('cancelled')
      if (!this.deps.learningOn()) return this.end('learning_off')
      // Undone (or deleted) since the run started: nothing to review.
      if (!this.deps.sessions.get(conversation.id)) {
        this.progress = { ...this.progress, total: this.progress.total - 1 }
        continue
      }
      this.progress = { ...this.progress, current: { sessionId: conversation.id, title: conversation.title } }
      this.emit()
      const ended = await this.review(conversation.id)
      if (ended === 'learning_off') return this.end('learning_off')
    }
    return this.end(this.progress.cancelRequested && this.progress.done < this.progress.total ? 'cancelled' : null)
  }

  /** One conversation's review, start to end; its outcome counted and the conversation marked when it finished. */
  private async review(sessionId: string): Promise<'ok' | 'learning_off'> {
    let outcome: ReviewOutcome | null = null
    let reviewId = ''
    const off = this.deps.host.events.on((event) => {
      if (event.type === 'review_finished' && event.reviewId === reviewId) outcome = event.outcome
      if (event.type === 'review_failed' && event.reviewId === reviewId) this.progress = { ...this.progress, lastError: event.error.split('\n')[0], lastFailure: event.failure }
    })
    try {
      reviewId = this.deps.loop.reviewNow(sessionId)
      const result = await this.deps.host.wait(reviewId)
      if (result === 'skipped' && !this.deps.learningOn()) return 'learning_off'
      const found = outcome as ReviewOutcome | null
      if (result === 'done' && found) {
        this.mark(sessionId, reviewId)
        this.progress = {
          ...this.progress,
          done: this.progress.done + 1,
          changes: this.progress.changes + found.entries.length,
          proposed: this.progress.proposed + (found.proposals?.length ?? 0)
        }
      } else {
        const unexplained = this.progress.lastError === null ? latestError(`the review ${result === 'skipped' ? 'did not run' : result}`) : {}
        this.progress = { ...this.progress, done: this.progress.done + 1, failed: this.progress.failed + 1, ...unexplained }
      }
      this.emit()
      return 'ok'
    } finally {
      off()
    }
  }

  private mark(sessionId: string, reviewId: string): void {
    try {
      this.deps.sessions.setStateKey(sessionId, IMPORT_LEARNED_KEY, { reviewId, at: this.now() })
    } catch {
      // Undone while it was reviewed: nothing left to mark.
    }
  }

  private end(stopped: LearnImportedInfo['stopped']): LearnImportedInfo {
    this.progress = { ...this.progress, running: false, current: null, stopped, finishedAt: this.now() }
    this.emit()
    return this.status()
  }

  private emit(): void {
    try {
      this.deps.changed?.(this.status())
    } catch (error) {
      console.error('cairn: could not announce the progress of learning from imports:', error)
    }
  }
}

/** A failure known only by its words (a thrown error), with the code they read back into. */
function latestError(text: string): Pick<LearnImportedInfo, 'lastError' | 'lastFailure'> {
  return { lastError: text, lastFailure: parseReviewFailure(text) }
}

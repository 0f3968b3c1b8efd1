import type { Statement } from 'better-sqlite3'
import { reviewFailureText } from '../../../shared/i18n/describe-review-failure'
import { parseReviewFailure, readStoredFailure, type ReviewFailure } from '../../../shared/review-failures'
import { parseStoredReason, type ReviewReason } from '../../../shared/review-reasons'
import type { ReviewJob, ReviewKind, ReviewOutcome } from '../../../shared/review-protocol'
import { parseStoredSummary, type ReviewSummary } from '../../../shared/review-outcome'
import type { StateDb } from '../db/state-db'

export type ReviewRunStatus = 'queued' | 'running' | 'done' | 'failed' | 'timeout' | 'crashed'
export type ReviewFailureStatus = Extract<ReviewRunStatus, 'failed' | 'timeout' | 'crashed'>

export interface ReviewRun {
  id: string
  sessionId: string | null
  kinds: ReviewKind[]
  reasons: ReviewReason[]
  status: ReviewRunStatus
  queuedAt: number
  startedAt: number | null
  finishedAt: number | null
  summary: ReviewSummary | null
  /** Why it did not finish, as data; for a row written before the `failure` column, read back from its English `error`. */
  failure: ReviewFailure | null
  /** The same in English, with the worker's last output when it had any: for logs and diagnostics. */
  error: string | null
  pid: number | null
  /** The model it ran on (recorded when it started); null for runs from before. */
  model: string | null
  /** Tokens over all its model calls, as the provider reported them; null when unknown. */
  promptTokens: number | null
  completionTokens: number | null
}

interface RunRow {
  id: string
  session_id: string | null
  kinds: string
  reasons: string
  status: ReviewRunStatus
  queued_at: number
  started_at: number | null
  finished_at: number | null
  summary: string | null
  failure: string | null
  error: string | null
  pid: number | null
  model: string | null
  prompt_tokens: number | null
  completion_tokens: number | null
}

export interface StaleRecovery {
  /** 'running' rows whose worker is gone, now 'crashed'. */
  crashed: string[]
  /** 'queued' rows whose process ended before starting them, now 'failed'. */
  failed: string[]
}

export interface RecoverStaleOptions {
  /** The review time budget: rows are judged by twice this age. */
  budgetMs: number
  now?: number
  /** Whether a worker process still runs; default: `process.kill(pid, 0)` (ESRCH means gone). */
  isAlive?: (pid: number) => boolean
}

const NEVER_STARTED: ReviewFailure = { code: 'never_started' }
export const NEVER_STARTED_ERROR = reviewFailureText(NEVER_STARTED)

/** Signal 0 checks that a process exists without touching it; EPERM means it exists but is someone else's. */
export function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0)
    return true
  } catch (error) {
    return (error as NodeJS.ErrnoException).code !== 'ESRCH'
  }
}

/**
 * Every background review and how it ended (`review_runs` in state.db), for the timeline and
 * diagnostics. The one rule of who writes a row (review-run-state.ts carries it out):
 * - its host writes `queued` and `running`, and every ending that happens with no worker alive: the
 *   job could not start (settings, spawn), was dropped from the queue, or its worker exited;
 * - a worker writes only if it was started `detached` (the one-shot CLI's, which may outlive its
 *   host), and only its own ending, which it then reports as `recorded` so its host does not;
 * - a row left open by a process that is gone is closed by the next host ({@link recoverStale}: a dead
 *   pid, or a queued row older than twice the budget).
 * Two live writers never race for one ending: the host writes a run's ending only after it has seen
 * the worker exit. Should it happen anyway (a bug, a clock), the ending is write-once: it lands only
 * on a row still queued or running (a compare-and-set under SQLite's write lock), so the first
 * ending stands and a later one is refused (`false`).
 */
export class ReviewRuns {
  private readonly statements: Record<'queue' | 'start' | 'finish' | 'fail' | 'failIf' | 'get' | 'list' | 'open' | 'ofSession', Statement>

  constructor(db: StateDb) {
    this.statements = {
      // Queuing the same id again (a coalesced trigger) updates what the queued run will look at.
      queue: db.prepare(
        `INSERT INTO review_runs (id, session_id, kinds, reasons, status, queued_at)
         VALUES (@id, @sessionId, @kinds, @reasons, 'queued', @at)
         ON CONFLICT(id) DO UPDATE SET kinds = excluded.kinds, reasons = excluded.reasons`
      ),
      start: db.prepare(`UPDATE review_runs SET status = 'running', started_at = @at, pid = @pid, model = coalesce(@model, model) WHERE id = @id`),
      // The outcome's model and tokens when it carries them; the model the host recorded at start otherwise.
      finish: db.prepare(
        `UPDATE review_runs SET status = 'done', finished_at = @at, summary = @summary, error = NULL, failure = NULL,
           model = coalesce(@model, model), prompt_tokens = @promptTokens, completion_tokens = @completionTokens
         WHERE id = @id AND status IN ('queued', 'running')`
      ),
      fail: db.prepare(
        `UPDATE review_runs SET status = @status, finished_at = @at, failure = @failure, error = @error WHERE id = @id AND status IN ('queued', 'running')`
      ),
      // Only if nobody recorded an ending meanwhile (the run's own host or worker may be finishing it).
      failIf: db.prepare(`UPDATE review_runs SET status = @status, finished_at = @at, failure = @failure, error = @error WHERE id = @id AND status = @was`),
      get: db.prepare('SELECT * FROM review_runs WHERE id = ?'),
      list: db.prepare('SELECT * FROM review_runs ORDER BY queued_at DESC, rowid DESC LIMIT ?'),
      open: db.prepare(`SELECT * FROM review_runs WHERE status IN ('queued', 'running')`),
      ofSession: db.prepare(`SELECT * FROM review_runs WHERE session_id = ? AND status = 'done' ORDER BY finished_at, rowid`)
    }
  }

  queued(job: Pick<ReviewJob, 'reviewId' | 'sessionId' | 'kinds' | 'reasons'>, at = Date.now()): void {
    this.statements.queue.run({
      id: job.reviewId,
      sessionId: job.sessionId,
      kinds: JSON.stringify(job.kinds),
      reasons: JSON.stringify(job.reasons),
      at
    })
  }

  /** `model`: what the host's start frame names, so the row says it even when a detached worker records the ending. */
  started(id: string, pid: number | null, at = Date.now(), model: string | null = null): void {
    this.statements.start.run({ id, pid, at, model })
  }

  /** Records the review's outcome; false if the row had already ended (or is unknown), and then nothing changed. */
  finished(id: string, outcome: Pick<ReviewOutcome, 'summary'> & Partial<Pick<ReviewOutcome, 'usage' | 'model'>>, at = Date.now()): boolean {
    const result = this.statements.finish.run({
      id,
      summary: JSON.stringify(outcome.summary),
      at,
      model: outcome.model ?? null,
      promptTokens: outcome.usage?.promptTokens ?? null,
      completionTokens: outcome.usage?.completionTokens ?? null
    })
    return result.changes > 0
  }

  /**
   * Records how the review failed; false if the row had already ended (or is unknown), and then
   * nothing changed. `failure` is stored as data (English text from an older caller is read into its
   * code); `error`, the English kept beside it for logs, defaults to the failure's en wording.
   */
  failed(id: string, status: ReviewFailureStatus, failure: ReviewFailure | string, options: { error?: string; at?: number } = {}): boolean {
    const data = typeof failure === 'string' ? parseReviewFailure(failure) : failure
    const error = options.error ?? (typeof failure === 'string' ? failure : reviewFailureText(failure))
    return this.statements.fail.run({ id, status, failure: JSON.stringify(data), error, at: options.at ?? Date.now() }).changes > 0
  }

  /**
   * Ends rows no process will ever finish: 'running' whose worker is gone (a killed app, serve or
   * worker), and 'queued' older than twice the budget (the process that queued them ended first).
   * A 'running' row without a pid is judged by age too. Live workers' rows are left alone.
   */
  recoverStale(options: RecoverStaleOptions): StaleRecovery {
    const now = options.now ?? Date.now()
    const isAlive = options.isAlive ?? processAlive
    const old = (run: RunRow) => now - (run.started_at ?? run.queued_at) > 2 * options.budgetMs
    const recovered: StaleRecovery = { crashed: [], failed: [] }
    for (const row of this.statements.open.all() as RunRow[]) {
      if (row.status === 'running') {
        if (row.pid === null ? !old(row) : isAlive(row.pid)) continue
        const gone: ReviewFailure = { code: 'worker_gone', pid: row.pid }
        const ending = { id: row.id, status: 'crashed', was: 'running', failure: JSON.stringify(gone), error: reviewFailureText(gone), at: now }
        if (this.statements.failIf.run(ending).changes) recovered.crashed.push(row.id)
      } else if (old(row)) {
        const ending = { id: row.id, status: 'failed', was: 'queued', failure: JSON.stringify(NEVER_STARTED), error: NEVER_STARTED_ERROR, at: now }
        if (this.statements.failIf.run(ending).changes) recovered.failed.push(row.id)
      }
    }
    return recovered
  }

  get(id: string): ReviewRun | null {
    const row = this.statements.get.get(id) as RunRow | undefined
    return row ? toRun(row) : null
  }

  /** The finished reviews of one conversation, oldest first: what it taught, for the chat to show. */
  doneForSession(sessionId: string): ReviewRun[] {
    return (this.statements.ofSession.all(sessionId) as RunRow[]).map(toRun)
  }

  /** Newest first. */
  list(options: { limit?: number } = {}): ReviewRun[] {
    return (this.statements.list.all(options.limit ?? 50) as RunRow[]).map(toRun)
  }
}

function toRun(row: RunRow): ReviewRun {
  return {
    id: row.id,
    sessionId: row.session_id,
    kinds: JSON.parse(row.kinds) as ReviewKind[],
    reasons: (JSON.parse(row.reasons) as unknown[]).map(parseStoredReason),
    status: row.status,
    queuedAt: row.queued_at,
    startedAt: row.started_at,
    finishedAt: row.finished_at,
    summary: parseStoredSummary(row.summary),
    failure: readStoredFailure(row.failure) ?? (row.error ? parseReviewFailure(row.error) : null),
    error: row.error,
    pid: row.pid,
    model: row.model ?? null,
    promptTokens: row.prompt_tokens ?? null,
    completionTokens: row.completion_tokens ?? null
  }
}

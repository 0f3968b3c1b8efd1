import { normalizeLedgerMeta, type LedgerMeta } from '../../../shared/ledger'
import { ledgerKindOf, type Proposal, type ProposalCause, type ProposalKind, type ProposalOrigin, type ProposalState } from '../../../shared/proposals'
import type { ReviewReason } from '../../../shared/review-reasons'
import type { StateDb } from '../db/state-db'

/** What a review or a curation pass wants changed, before the store gives it an id. */
export interface NewProposal {
  origin: ProposalOrigin
  reviewId: string | null
  sessionId: string | null
  kind: ProposalKind
  target: string
  before: string | null
  after: string | null
  meta: Partial<LedgerMeta>
  reasons: ReviewReason[]
  cause: ProposalCause
  rationale: string | null
}

export interface ProposalQuery {
  /** Default: every state. */
  states?: readonly ProposalState[]
  /** Only proposals older than this id (paging from newest to oldest). */
  beforeId?: number
  limit?: number
  reviewId?: string
  /** Oldest first instead of newest first (approve-all applies in the order they were proposed). */
  oldestFirst?: boolean
}

export interface ProposalDecision {
  state: Exclude<ProposalState, 'pending'>
  /** The user's own text, for `edited`. */
  editedAfter?: string | null
  /** The ledger row the approval wrote (none when there was nothing to do, or for a rejection). */
  ledgerId?: number | null
}

interface ProposalRow {
  id: number
  created_at: number
  origin: ProposalOrigin
  review_id: string | null
  session_id: string | null
  kind: ProposalKind
  target: string
  before: string | null
  after: string | null
  meta: string
  reasons: string
  cause: ProposalCause
  rationale: string | null
  state: ProposalState
  decided_at: number | null
  edited_after: string | null
  ledger_id: number | null
}

/**
 * The `proposals` table: changes learning wants that wait for the user (the Inbox). Rows are never
 * deleted: a rejected one is remembered so later reviews do not propose it again. `stale` is always
 * false here; whether a pending proposal's target still holds its `before` is the applier's to judge.
 */
export class ProposalStore {
  constructor(private readonly db: StateDb) {}

  add(proposal: NewProposal, at = Date.now()): Proposal {
    const info = this.db
      .prepare(
        `INSERT INTO proposals (created_at, origin, review_id, session_id, kind, target, before, after, meta, reasons, cause, rationale)
         VALUES (@at, @origin, @reviewId, @sessionId, @kind, @target, @before, @after, @meta, @reasons, @cause, @rationale)`
      )
      .run({
        at,
        origin: proposal.origin,
        reviewId: proposal.reviewId,
        sessionId: proposal.sessionId,
        kind: proposal.kind,
        target: proposal.target,
        before: proposal.before,
        after: proposal.after,
        meta: JSON.stringify(normalizeLedgerMeta(ledgerKindOf(proposal.kind), proposal.target, proposal.meta)),
        reasons: JSON.stringify(proposal.reasons),
        cause: proposal.cause,
        rationale: proposal.rationale
      })
    return this.get(Number(info.lastInsertRowid))!
  }

  get(id: number): Proposal | null {
    const row = this.db.prepare('SELECT * FROM proposals WHERE id = ?').get(id) as ProposalRow | undefined
    return row ? toProposal(row) : null
  }

  /** Newest first unless `oldestFirst`. */
  list(query: ProposalQuery = {}): Proposal[] {
    const where: string[] = []
    const params: unknown[] = []
    if (query.states?.length) {
      where.push(`state IN (${query.states.map(() => '?').join(',')})`)
      params.push(...query.states)
    }
    if (query.beforeId !== undefined) {
      where.push('id < ?')
      params.push(query.beforeId)
    }
    if (query.reviewId !== undefined) {
      where.push('review_id = ?')
      params.push(query.reviewId)
    }
    const sql =
      `SELECT * FROM proposals ${where.length ? `WHERE ${where.join(' AND ')}` : ''} ` +
      `ORDER BY id ${query.oldestFirst ? 'ASC' : 'DESC'} LIMIT ?`
    params.push(query.limit ?? 200)
    return (this.db.prepare(sql).all(...params) as ProposalRow[]).map(toProposal)
  }

  /** How many wait, and since when (milliseconds since the epoch; null when none wait). */
  pending(): { count: number; oldestAt: number | null } {
    const row = this.db.prepare("SELECT COUNT(*) AS count, MIN(created_at) AS oldest FROM proposals WHERE state = 'pending'").get() as {
      count: number
      oldest: number | null
    }
    return { count: row.count, oldestAt: row.oldest }
  }

  /**
   * Records the user's decision on a pending proposal. Null when it is not pending (any more): two
   * faces deciding at once never both win.
   */
  decide(id: number, decision: ProposalDecision, at = Date.now()): Proposal | null {
    const changed = this.db
      .prepare(
        `UPDATE proposals SET state = @state, decided_at = @at, edited_after = @editedAfter, ledger_id = @ledgerId
         WHERE id = @id AND state = 'pending'`
      )
      .run({ id, at, state: decision.state, editedAfter: decision.editedAfter ?? null, ledgerId: decision.ledgerId ?? null }).changes
    return changed === 1 ? this.get(id) : null
  }

  /** A proposal in one of `states` that would make exactly this change (same target, before and after). */
  findIdentical(change: Pick<NewProposal, 'target' | 'before' | 'after'>, states: readonly ProposalState[]): Proposal | null {
    const row = this.db
      .prepare(
        `SELECT * FROM proposals WHERE target = ? AND before IS ? AND after IS ? AND state IN (${states.map(() => '?').join(',')})
         ORDER BY id DESC LIMIT 1`
      )
      .get(change.target, change.before, change.after, ...states) as ProposalRow | undefined
    return row ? toProposal(row) : null
  }
}

function toProposal(row: ProposalRow): Proposal {
  return {
    id: row.id,
    createdAt: row.created_at,
    origin: row.origin,
    reviewId: row.review_id,
    sessionId: row.session_id,
    kind: row.kind,
    target: row.target,
    before: row.before,
    after: row.after,
    meta: normalizeLedgerMeta(ledgerKindOf(row.kind), row.target, parseJson(row.meta, {})),
    reasons: parseJson(row.reasons, []) as ReviewReason[],
    cause: row.cause,
    rationale: row.rationale,
    state: row.state,
    decidedAt: row.decided_at,
    editedAfter: row.edited_after,
    ledgerId: row.ledger_id,
    stale: false
  }
}

function parseJson(text: string, fallback: unknown): unknown {
  try {
    return JSON.parse(text)
  } catch {
    return fallback
  }
}

import type { Statement } from 'better-sqlite3'
import { hostname } from 'node:os'
import { contextMeta, kindWithMeta, normalizeLedgerMeta, skillNameOf, type LearnedChange, type LedgerEntry, type LedgerKind, type LedgerSource, type WriteContext } from '../../../shared/ledger'
import type { StateDb } from '../db/state-db'
import type { BatchChangeRecorder, PendingChanges, PendingRecorder } from './recorder'

export type { BatchChangeRecorder, ChangeRecorder, PendingChanges, PendingRecorder } from './recorder'

/** `committed`: on the timeline; `pending`: written before its change landed; `conflict`: reconciliation could not tell. */
export type LedgerRowState = 'committed' | 'pending' | 'conflict'

/** A row that is not (yet) on the timeline, for reconciliation and `cairn doctor`. */
export type UnsettledEntry = LedgerEntry & {
  state: Exclude<LedgerRowState, 'committed'>
  /** `host:pid` of the process that wrote the row pending (null for rows from before). */
  writer: string | null
}

/** How a pending row names its process. */
export function writerId(): string {
  return `${hostname()}:${process.pid}`
}

export interface LedgerQuery {
  limit?: number
  /** Only rows older than this id (paging from newest to oldest). */
  beforeId?: number
  kinds?: LedgerKind[]
  sources?: LedgerSource[]
  reviewId?: string
  sessionId?: string
}

interface LedgerRow {
  id: number
  at: number
  kind: LedgerKind
  target: string
  source: LedgerSource
  session_id: string | null
  review_id: string | null
  before: string | null
  after: string | null
  meta: string
  reverted_by: number | null
  state: LedgerRowState
  writer: string | null
}

const COMMITTED = "state = 'committed'"

/**
 * The learning ledger: one row per change to memory or skills, whoever made it. Stores write a change's
 * rows pending before the file changes ({@link begin}) and commit them after, so a crash in between is
 * recoverable; only committed rows are on the timeline ({@link get}, {@link list}, {@link forSkill}).
 */
export class Ledger implements BatchChangeRecorder, PendingRecorder {
  private readonly insert: Statement
  private readonly byId: Statement
  private readonly anyById: Statement
  private readonly listeners = new Set<(entry: LedgerEntry) => void>()

  constructor(private readonly db: StateDb) {
    this.insert = db.prepare(
      `INSERT INTO ledger (at, kind, target, source, session_id, review_id, before, after, meta, state, writer)
       VALUES (@at, @kind, @target, @source, @sessionId, @reviewId, @before, @after, @meta, @state, @writer)`
    )
    this.byId = db.prepare(`SELECT * FROM ledger WHERE id = ? AND ${COMMITTED}`)
    this.anyById = db.prepare('SELECT * FROM ledger WHERE id = ?')
  }

  record(change: LearnedChange, ctx: WriteContext): LedgerEntry {
    return this.recordAll([change], ctx)[0]
  }

  /**
   * Records the rows in one IMMEDIATE transaction, so a failure (the database locked past its busy
   * timeout, a full disk) leaves none of them. Listeners hear about the rows only after the commit.
   */
  recordAll(changes: readonly LearnedChange[], ctx: WriteContext): LedgerEntry[] {
    const entries = this.db
      .transaction(() => changes.map((change) => this.get(this.insertRow(change, ctx, 'committed'))!))
      .immediate()
    for (const entry of entries) this.notify(entry)
    return entries
  }

  /**
   * Writes the rows pending, in one IMMEDIATE transaction (all or none; throws if the database refuses).
   * The caller changes its file next, then commits; {@link settlePending} deals with rows a crash left.
   */
  begin(changes: readonly LearnedChange[], ctx: WriteContext): PendingChanges {
    // Nothing to record (entries only reordered): the write goes ahead without rows.
    if (changes.length === 0) return { commit: () => [], abort: () => {} }
    const ids = this.db.transaction(() => changes.map((change) => this.insertRow(change, ctx, 'pending'))).immediate()
    let settled = false
    return {
      commit: () => {
        // words-ok: a broken invariant (a bug or a race), for logs; a face gets it as INTERNAL
        if (settled) throw new Error('These ledger rows were already settled.')
        const entries = this.db
          .transaction(() => {
            const changed = this.db
              .prepare(`UPDATE ledger SET state = 'committed' WHERE state = 'pending' AND id IN (${ids.map(() => '?').join(',')})`)
              .run(...ids).changes
            // words-ok: a broken invariant (a bug or a race), for logs; a face gets it as INTERNAL
            if (changed !== ids.length) throw new Error('The pending ledger rows of this change were reconciled away by another process.')
            this.markRevertsDone(ids)
            return ids.map((id) => this.get(id)!)
          })
          .immediate()
        settled = true
        for (const entry of entries) this.notify(entry)
        return entries
      },
      abort: () => {
        if (settled) return
        this.dropPending(ids)
        settled = true
      }
    }
  }

  private insertRow(change: LearnedChange, ctx: WriteContext, state: LedgerRowState): number {
    const info = this.insert.run({
      at: Date.now(),
      kind: change.kind,
      target: change.target,
      source: ctx.source,
      sessionId: ctx.sessionId ?? null,
      reviewId: ctx.reviewId ?? null,
      before: change.before,
      after: change.after,
      meta: JSON.stringify(normalizeLedgerMeta(change.kind, change.target, { ...change.meta, ...contextMeta(ctx) })),
      state,
      writer: state === 'pending' ? writerId() : null
    })
    return Number(info.lastInsertRowid)
  }

  /** Rows that are not on the timeline (pending, or marked conflict by reconciliation), oldest first. */
  unsettled(state?: Exclude<LedgerRowState, 'committed'>): UnsettledEntry[] {
    const rows = this.db
      .prepare(`SELECT * FROM ledger WHERE ${state ? 'state = ?' : "state <> 'committed'"} ORDER BY id`)
      .all(...(state ? [state] : [])) as LedgerRow[]
    return rows.map((row) => ({ ...toEntry(row), state: row.state as UnsettledEntry['state'], writer: row.writer }))
  }

  /** The row with its state, whatever the state (null when there is none). */
  getAnyState(id: number): (LedgerEntry & { state: LedgerRowState }) | null {
    const row = this.anyById.get(id) as LedgerRow | undefined
    return row ? { ...toEntry(row), state: row.state } : null
  }

  /**
   * Settles unsettled rows: `commit` puts them on the timeline (listeners hear about them), `drop`
   * deletes them, `conflict` keeps them off the timeline for `cairn doctor`. Returns the ids it changed.
   */
  settlePending(ids: readonly number[], outcome: 'commit' | 'drop' | 'conflict'): number[] {
    if (ids.length === 0) return []
    const marks = ids.map(() => '?').join(',')
    const changed = this.db
      .transaction(() => {
        const found = (this.db.prepare(`SELECT id FROM ledger WHERE state <> 'committed' AND id IN (${marks})`).all(...ids) as { id: number }[]).map(
          (row) => row.id
        )
        if (found.length === 0) return found
        const these = found.map(() => '?').join(',')
        if (outcome === 'drop') this.db.prepare(`DELETE FROM ledger WHERE id IN (${these})`).run(...found)
        else this.db.prepare(`UPDATE ledger SET state = ? WHERE id IN (${these})`).run(outcome === 'commit' ? 'committed' : 'conflict', ...found)
        if (outcome === 'commit') this.markRevertsDone(found)
        return found
      })
      .immediate()
    if (outcome === 'commit') for (const id of changed) this.notify(this.get(id)!)
    return changed
  }

  private dropPending(ids: readonly number[]): void {
    if (ids.length === 0) return
    this.db.prepare(`DELETE FROM ledger WHERE state = 'pending' AND id IN (${ids.map(() => '?').join(',')})`).run(...ids)
  }

  /** A listener is a bystander (the UI's timeline): its failure must never fail or undo the write. */
  private notify(entry: LedgerEntry): void {
    for (const listener of this.listeners) {
      try {
        listener(entry)
      } catch (error) {
        console.error(`cairn: ledger listener failed for entry #${entry.id}:`, error)
      }
    }
  }

  get(id: number): LedgerEntry | null {
    const row = this.byId.get(id) as LedgerRow | undefined
    return row ? toEntry(row) : null
  }

  /** Newest first. */
  list(query: LedgerQuery = {}): LedgerEntry[] {
    const where: string[] = [COMMITTED]
    const params: unknown[] = []
    if (query.beforeId !== undefined) {
      where.push('id < ?')
      params.push(query.beforeId)
    }
    if (query.kinds?.length) {
      where.push(`kind IN (${query.kinds.map(() => '?').join(',')})`)
      params.push(...query.kinds)
    }
    if (query.sources?.length) {
      where.push(`source IN (${query.sources.map(() => '?').join(',')})`)
      params.push(...query.sources)
    }
    if (query.reviewId) {
      where.push('review_id = ?')
      params.push(query.reviewId)
    }
    if (query.sessionId) {
      where.push('session_id = ?')
      params.push(query.sessionId)
    }
    const sql = `SELECT * FROM ledger WHERE ${where.join(' AND ')} ORDER BY id DESC LIMIT ?`
    params.push(query.limit ?? 50)
    return (this.db.prepare(sql).all(...params) as LedgerRow[]).map(toEntry)
  }

  /**
   * Every row that touched one skill (any of its files), newest first. A row from an older Cairn
   * without `meta.skill` is matched by its path, then named the way {@link toEntry} names it.
   */
  forSkill(name: string, limit = 200): LedgerEntry[] {
    const folder = `%/${name.replace(/[\\%_]/g, (c) => `\\${c}`)}/%`
    const rows = this.db
      .prepare(
        `SELECT * FROM ledger WHERE kind LIKE 'skill.%' AND ${COMMITTED}
           AND (json_extract(meta, '$.skill') = ? OR (json_extract(meta, '$.skill') IS NULL AND target LIKE ? ESCAPE '\\'))
         ORDER BY id DESC LIMIT ?`
      )
      .all(name, folder, limit) as LedgerRow[]
    return rows.map(toEntry).filter((entry) => skillNameOf(entry) === name)
  }

  /**
   * A committed revert row marks the row it undid, in the same transaction: a revert killed after its
   * file changed and committed at the next open still leaves the original row marked as reverted.
   */
  private markRevertsDone(ids: readonly number[]): void {
    const marks = ids.map(() => '?').join(',')
    const reverts = this.db
      .prepare(`SELECT id, json_extract(meta, '$.revertOf') AS revertOf FROM ledger WHERE source = 'revert' AND id IN (${marks})`)
      .all(...ids) as { id: number; revertOf: unknown }[]
    for (const row of reverts) {
      if (typeof row.revertOf === 'number') this.db.prepare('UPDATE ledger SET reverted_by = ? WHERE id = ? AND reverted_by IS NULL').run(row.id, row.revertOf)
    }
  }

  markReverted(id: number, revertId: number): void {
    this.db.prepare('UPDATE ledger SET reverted_by = ? WHERE id = ?').run(revertId, id)
  }

  /** Called for every row this process records (other processes' rows show up in {@link list}). */
  onRecord(listener: (entry: LedgerEntry) => void): () => void {
    this.listeners.add(listener)
    return () => this.listeners.delete(listener)
  }
}

/** Rows are kept as written; older ones get the meta fields every row now carries (see normalizeLedgerMeta). */
function toEntry(row: LedgerRow): LedgerEntry {
  const fields = {
    id: row.id,
    at: new Date(row.at).toISOString(),
    target: row.target,
    source: row.source,
    sessionId: row.session_id,
    reviewId: row.review_id,
    before: row.before,
    after: row.after,
    revertedBy: row.reverted_by
  }
  return { ...fields, ...kindWithMeta(row.kind, row.target, parseMeta(row.meta)) }
}

function parseMeta(text: string): unknown {
  try {
    return JSON.parse(text)
  } catch {
    return {}
  }
}

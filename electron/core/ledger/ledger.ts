import type { Statement } from 'better-sqlite3'
import { kindWithMeta, normalizeLedgerMeta, skillNameOf, type LearnedChange, type LedgerEntry, type LedgerKind, type LedgerSource, type WriteContext } from '../../../shared/ledger'
import type { StateDb } from '../db/state-db'
import type { BatchChangeRecorder } from './recorder'

export type { BatchChangeRecorder, ChangeRecorder } from './recorder'

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
}

/** The learning ledger: one row per change to memory or skills, whoever made it. */
export class Ledger implements BatchChangeRecorder {
  private readonly insert: Statement
  private readonly byId: Statement
  private readonly listeners = new Set<(entry: LedgerEntry) => void>()

  constructor(private readonly db: StateDb) {
    this.insert = db.prepare(
      `INSERT INTO ledger (at, kind, target, source, session_id, review_id, before, after, meta)
       VALUES (@at, @kind, @target, @source, @sessionId, @reviewId, @before, @after, @meta)`
    )
    this.byId = db.prepare('SELECT * FROM ledger WHERE id = ?')
  }

  record(change: LearnedChange, ctx: WriteContext): LedgerEntry {
    return this.recordAll([change], ctx)[0]
  }

  /**
   * Records the rows in one IMMEDIATE transaction, so a failure (the database locked past its busy
   * timeout, a full disk) leaves none of them. Listeners hear about the rows only after the commit.
   */
  recordAll(changes: readonly LearnedChange[], ctx: WriteContext): LedgerEntry[] {
    const entries = this.db.transaction(() => changes.map((change) => this.insertRow(change, ctx))).immediate()
    for (const entry of entries) this.notify(entry)
    return entries
  }

  private insertRow(change: LearnedChange, ctx: WriteContext): LedgerEntry {
    const info = this.insert.run({
      at: Date.now(),
      kind: change.kind,
      target: change.target,
      source: ctx.source,
      sessionId: ctx.sessionId ?? null,
      reviewId: ctx.reviewId ?? null,
      before: change.before,
      after: change.after,
      meta: JSON.stringify(normalizeLedgerMeta(change.kind, change.target, change.meta))
    })
    return this.get(Number(info.lastInsertRowid))!
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
    const where: string[] = []
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
    const sql = `SELECT * FROM ledger ${where.length ? 'WHERE ' + where.join(' AND ') : ''} ORDER BY id DESC LIMIT ?`
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
        `SELECT * FROM ledger WHERE kind LIKE 'skill.%'
           AND (json_extract(meta, '$.skill') = ? OR (json_extract(meta, '$.skill') IS NULL AND target LIKE ? ESCAPE '\\'))
         ORDER BY id DESC LIMIT ?`
      )
      .all(name, folder, limit) as LedgerRow[]
    return rows.map(toEntry).filter((entry) => skillNameOf(entry) === name)
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

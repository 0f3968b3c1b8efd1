import type { StateDb } from '../db/state-db'
import { planArchiveQuery } from './archive-query'

/** A term matching more entries than this is common: beside a rarer term it is not searched (bm25 would walk all its postings). */
export const COMMON_TERM_ENTRIES = 1500
/** Entries ranked inside the index before the scope (project, hidden, superseded) is applied, per hit wanted. */
const RANK_HEADROOM = 4
/** The substring fallback for Chinese/Japanese reads at most this many of the newest entries holding such words. */
const LIKE_FALLBACK_ROWS = 20_000

/** A row of `memory_archive` with its score (higher is better). */
export type ScoredRow = Record<string, unknown> & { id: number; score: number }

/**
 * Word search over the archive, planned by term rarity so its cost stays flat as the archive grows:
 * each term's entries are counted (up to {@link COMMON_TERM_ENTRIES} + 1 postings); the terms under
 * that are ranked by FTS5 bm25 over the whole archive; when every term is common, the entries holding
 * all of them are read newest first instead (a query of only common words says little about which
 * entry is best). Then, for Chinese and Japanese, runs are looked for as written in the entries that
 * hold such words, for words ICU split differently (扣押金 → 扣押|金 hides 押金), ranked below.
 * `scope` is the SQL from scopeClause over alias `a`.
 */
export function searchArchiveWords(db: StateDb, query: string, scope: { sql: string; params: unknown[] }, limit: number): ScoredRow[] {
  const plan = planArchiveQuery(query)
  const rows: ScoredRow[] = []
  if (plan.terms.length) {
    const counted = plan.terms.map((term) => ({ term, entries: entriesHolding(db, term) })).filter((counted) => counted.entries > 0)
    const rare = counted.filter((counted) => counted.entries <= COMMON_TERM_ENTRIES)
    if (rare.length) {
      const match = rare.map((counted) => counted.term).join(' OR ')
      // Ranked inside the index first (no row read per match), then the best few are read and scoped;
      // when the scope leaves too few of them, the whole match is ranked with the scope applied.
      const ranked = (inner: number | null) =>
        db
          .prepare(
            `SELECT a.*, -r.rank AS score FROM (SELECT rowid, rank FROM memory_archive_fts WHERE memory_archive_fts MATCH ? ORDER BY rank${inner ? ` LIMIT ${inner}` : ''}) r
             JOIN memory_archive a ON a.id = r.rowid WHERE 1 = 1 ${scope.sql} ORDER BY r.rank, a.id DESC LIMIT ?`
          )
          .all(match, ...scope.params, limit) as ScoredRow[]
      const best = ranked(limit * RANK_HEADROOM)
      rows.push(...(best.length < limit && rare.reduce((sum, counted) => sum + counted.entries, 0) > limit * RANK_HEADROOM ? ranked(null) : best))
    } else if (counted.length) {
      const newest = db
        .prepare(
          `SELECT a.*, 0 AS score FROM memory_archive_fts JOIN memory_archive a ON a.id = memory_archive_fts.rowid
           WHERE memory_archive_fts MATCH ? ${scope.sql} ORDER BY memory_archive_fts.rowid DESC LIMIT ?`
        )
        .all(counted.map((counted) => counted.term).join(' AND '), ...scope.params, limit) as ScoredRow[]
      // Newest first, scored so that order holds for callers that sort by score.
      rows.push(...newest.map((row, index) => ({ ...row, score: 1 / (index + 2) })))
    }
  }
  if (rows.length < limit && plan.cjkRuns.length) {
    const seen = new Set(rows.map((row) => row.id))
    const like = plan.cjkRuns.map(() => 'a.text LIKE ?').join(' OR ')
    const found = db
      .prepare(
        `SELECT a.*, 0 AS score FROM (SELECT id FROM memory_archive WHERE words IS NOT NULL ORDER BY id DESC LIMIT ${LIKE_FALLBACK_ROWS}) r
         JOIN memory_archive a ON a.id = r.id WHERE (${like}) ${scope.sql} ORDER BY a.id DESC LIMIT ?`
      )
      .all(...plan.cjkRuns.map((run) => `%${escapeLike(run)}%`), ...scope.params, limit) as ScoredRow[]
    for (const row of found) if (!seen.has(row.id) && rows.length < limit) rows.push(row)
  }
  return rows
}

/** How many entries hold `term` (an FTS5 quoted term), counted through the index and stopping past the common mark. */
function entriesHolding(db: StateDb, term: string): number {
  return db
    .prepare(`SELECT count(*) FROM (SELECT rowid FROM memory_archive_fts WHERE memory_archive_fts MATCH ? LIMIT ${COMMON_TERM_ENTRIES + 1})`)
    .pluck()
    .get(term) as number
}

function escapeLike(text: string): string {
  return text.replace(/[%_\\]/g, (char) => `\\${char}`)
}

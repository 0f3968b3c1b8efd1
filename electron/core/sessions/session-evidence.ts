import type { StateDb } from '../db/state-db'
import type { WordPlan } from './query-planner'
import { DOCUMENT_COUNT_CAP } from './term-stats'

/** Evidence about a whole conversation that session search adds to its messages' scores. */

/** Messages holding the query's distinctive term(s), when the plan ranks those first (else null). */
export function distinctiveMessages(db: StateDb, words: WordPlan): Set<number> | null {
  if (!words.tiered || !words.distinctive) return null
  const ids = db.prepare('SELECT rowid FROM messages_fts WHERE messages_fts MATCH ? LIMIT ?').pluck().all(words.distinctive, DOCUMENT_COUNT_CAP) as number[]
  return new Set(ids)
}

/**
 * Session-level evidence: a session also scores this share of the idf of each distinct query term it
 * holds anywhere, so one that covers several of the question's words (a multi-part question's
 * answer is often spread over turns) gains on one that repeats a single word.
 */
export const COVERAGE_WEIGHT = 0.25

/**
 * Session id → the summed idf of the distinct query terms it holds. Only when every term went to the
 * bm25 query (their postings fit RANK_BUDGET), so the lookups stay as bounded as that query.
 */
export function sessionCoverage(db: StateDb, words: WordPlan): Map<string, number> | null {
  if (!words.ranked || words.common || words.kept.length < 2) return null
  const corpus = (db.prepare('SELECT max(id) AS n FROM messages').get() as { n: number | null }).n ?? 0
  const coverage = new Map<string, number>()
  const sessionsOf = db.prepare('SELECT DISTINCT m.session_id FROM messages_fts f JOIN messages m ON m.id = f.rowid WHERE messages_fts MATCH ?').pluck()
  for (const term of words.kept) {
    const idf = Math.max(1e-6, Math.log((corpus - term.documents + 0.5) / (term.documents + 0.5)))
    for (const id of sessionsOf.all(term.expression) as string[]) coverage.set(id, (coverage.get(id) ?? 0) + idf)
  }
  return coverage
}

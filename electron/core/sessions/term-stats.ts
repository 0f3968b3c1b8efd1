import type { StateDb } from '../db/state-db'

/**
 * How many messages a search term matches, counted through the word index itself (so stemming,
 * phrases and prefixes count exactly as they match) and only up to a cap: past the cap a term is
 * "common" and its exact count would not change the plan. `fts5vocab` was measured as the other way
 * (same speed) but holds porter stems ("gateway" is stored as "gatewai"), which a query word would
 * have to be stemmed into first.
 */

/** Counting stops here: 5,000 postings cost about 0.5 ms to walk. */
export const DOCUMENT_COUNT_CAP = 5000
/**
 * A term past the cap is counted again over only the newest messages, and its count scaled up to the
 * corpus: a bounded walk whatever the history's size, and a share accurate enough to tell a topic
 * word (a few percent of messages) from a function word (a third of them).
 */
export const SAMPLE_MESSAGES = 20_000
/** Counts are reused until the corpus grows by this share (or by STATS_STALE_MESSAGES). */
export const STATS_STALE_SHARE = 0.05
export const STATS_STALE_MESSAGES = 50
/** Terms remembered per database: a typing session asks for a few dozen. */
const CACHE_TERMS = 512
/**
 * Only counts this large are remembered: they cost a walk to make and change slowly relative to
 * themselves. A rare term is recounted every time (cheap), so a word that first appears in the next
 * message is found at once rather than after the corpus has grown by STATS_STALE_SHARE.
 */
export const CACHE_MIN_DOCUMENTS = 500

export interface TermStats {
  /** Messages in the corpus (an upper bound: the highest message id). */
  corpus: number
  /** Sessions in the history (counted when the cache is refreshed). */
  sessions: number
  /** FTS5 expression of one term (e.g. `"nginx"`, `"deploi"*`) → messages it matches (exact below the cap, else estimated). */
  documents: Map<string, number>
}

interface CachedCounts {
  corpus: number
  sessions: number
  counts: Map<string, number>
}

const caches = new WeakMap<StateDb, CachedCounts>()

/**
 * The corpus size and each expression's capped document count, from a per-database cache. `known`
 * counts (a completion's, read from the vocabulary) are taken as they are.
 */
export function termStats(db: StateDb, expressions: string[], known?: ReadonlyMap<string, number>): TermStats {
  const corpus = (db.prepare('SELECT max(id) AS n FROM messages').get() as { n: number | null }).n ?? 0
  let cache = caches.get(db)
  if (!cache || corpus > cache.corpus * (1 + STATS_STALE_SHARE) + STATS_STALE_MESSAGES || corpus < cache.corpus) {
    const sessions = (db.prepare('SELECT count(*) AS n FROM sessions').get() as { n: number }).n
    cache = { corpus, sessions, counts: new Map() }
    caches.set(db, cache)
  }
  const documents = new Map<string, number>()
  const count = db.prepare('SELECT count(*) AS n FROM (SELECT rowid FROM messages_fts WHERE messages_fts MATCH ? LIMIT ?)')
  // The CAST: better-sqlite3 binds numbers as REAL, and FTS5 ignores a REAL rowid bound next to MATCH.
  const recent = db.prepare('SELECT count(*) AS n FROM messages_fts WHERE messages_fts MATCH ? AND rowid > CAST(? AS INTEGER)')
  for (const expression of expressions) {
    let n = known?.get(expression) ?? cache.counts.get(expression)
    if (n === undefined) {
      n = (count.get(expression, DOCUMENT_COUNT_CAP) as { n: number }).n
      if (n >= DOCUMENT_COUNT_CAP && corpus > SAMPLE_MESSAGES) {
        const inSample = (recent.get(expression, corpus - SAMPLE_MESSAGES) as { n: number }).n
        n = Math.max(n, Math.round((inSample / SAMPLE_MESSAGES) * corpus))
      }
      if (n >= CACHE_MIN_DOCUMENTS) {
        if (cache.counts.size >= CACHE_TERMS) cache.counts.delete(cache.counts.keys().next().value as string)
        cache.counts.set(expression, n)
      }
    }
    documents.set(expression, n)
  }
  return { corpus, sessions: cache.sessions, documents }
}

/** Forgets the counts for a database (after a bulk delete or import, or in tests). */
export function forgetTermStats(db: StateDb): void {
  caches.delete(db)
}

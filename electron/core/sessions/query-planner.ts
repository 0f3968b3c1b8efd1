import type { StateDb } from '../db/state-db'
import { isUnsegmented, quoteTerm, type QueryTerm } from './fts-query'
import { stopWords } from './stop-words'
import { termStats } from './term-stats'

/**
 * Plans the word-index part of a search from how common each term is in this history, so that the
 * distinctive words decide the ranking and the work stays bounded at a million messages:
 * - a term in more than STOP_SHARE of all messages is stop-word-like and not searched at all (a
 *   session matching only such terms is not a result) when the query has a rarer term; a query of
 *   only such terms searches its rarest one;
 * - when all kept terms' postings fit RANK_BUDGET (any history but a large one), one bm25 query
 *   ranks them over the whole history;
 * - otherwise the rarest terms that fit are ranked by bm25 over the whole history, and the other
 *   (common) terms are looked up over only the newest messages, as many as expect SLICE_BUDGET
 *   postings, and scored in JS with bm25's idf (see commonTermCandidates). FTS5's bm25 walks every
 *   posting of every term to count it, whatever the rowid bound: 15 ms for four topic words at a
 *   million messages, which is why common terms never go through it.
 */

/** A term in more than this share of messages says nothing about which one is meant. */
export const STOP_SHARE = 0.2
/**
 * Shares mean something only over a varied history: below this many messages or sessions (a new
 * user's, or one long session) nothing is dropped and bm25's idf does the weighting.
 */
export const STOP_MIN_CORPUS = 200
export const STOP_MIN_SESSIONS = 20
/**
 * When the query's rarest terms are this many times rarer than its other terms, a session holding
 * one of them ranks above every session that does not (bm25 would let two common words, repeated,
 * outweigh them).
 */
export const RARITY_GAP = 8
/** …and only when those other terms are common ones, each in at least this share of messages. */
export const COMMON_SHARE = 0.05

/** Postings one bm25 query may walk and rank (about 2 µs each, counting and ranking): about 3 ms. */
export const RANK_BUDGET = 1500
/** Postings of the common terms read (unranked, about 0.3 µs each) from the newest messages. */
export const SLICE_BUDGET = 5000

export interface PlannedTerm {
  term: QueryTerm
  /** The term as an FTS5 expression. */
  expression: string
  /** Messages it matches (estimated past the count cap). */
  documents: number
}

export interface WordPlan {
  /** Terms searched, rarest first. */
  kept: PlannedTerm[]
  /** Stop-word-like terms (by share of the corpus), not searched. */
  dropped: PlannedTerm[]
  /** OR of the terms ranked by bm25 over the whole history (every kept term when they fit RANK_BUDGET). */
  ranked: string | null
  /** Terms too common for bm25, looked up among messages with id ≥ `fromId`, each with its idf. */
  common: { terms: Array<PlannedTerm & { idf: number }>; fromId: number } | null
  /** OR of the rarest kept term(s), for the snippet: what is distinctive is what gets marked. */
  distinctive: string | null
  /** The expressions `distinctive` ORs. */
  distinctiveTerms: string[]
  /** Sessions holding `distinctive` rank first: it is RARITY_GAP times rarer than the other terms, which are common. */
  tiered: boolean
  /** OR of every term not stop-word-like, in query order, matching or not (attachments are indexed apart). */
  searched: string | null
}

/** Words (not unsegmented runs) of `terms`, planned against this database's term counts (`known` ones as given). */
export function planWords(db: StateDb, terms: QueryTerm[], known?: ReadonlyMap<string, number>): WordPlan {
  const words = terms.filter((t) => !isUnsegmented(t.text))
  const expressions = words.map(quoteTerm)
  const stats = termStats(db, expressions, known)
  const planned = words
    .map((term, i): PlannedTerm => ({ term, expression: expressions[i], documents: stats.documents.get(expressions[i]) ?? 0 }))
    .sort((a, b) => a.documents - b.documents)
  const varied = stats.corpus >= STOP_MIN_CORPUS && stats.sessions >= STOP_MIN_SESSIONS
  const stopLike = (t: PlannedTerm): boolean => varied && t.documents > STOP_SHARE * stats.corpus
  let kept = planned.filter((t) => !stopLike(t) && t.documents > 0)
  let dropped = planned.filter(stopLike)
  // Only beside a rarer word is a common one left out: a query of nothing but common words (a
  // project's own name can be in a third of all messages) still searches the rarest, newest first.
  const contentWord = dropped.find((t) => !stopWords.has(t.term.text.toLowerCase()))
  if (kept.length === 0 && contentWord) [kept, dropped] = [[contentWord], dropped.filter((t) => t !== contentWord)]
  const notDropped = expressions.filter((e) => !dropped.some((d) => d.expression === e))
  const searched = notDropped.length ? notDropped.join(' OR ') : null
  if (!kept.length) return { kept, dropped, ranked: null, common: null, distinctive: null, distinctiveTerms: [], tiered: false, searched }

  const rare: PlannedTerm[] = []
  let rarePostings = 0
  for (const t of kept) {
    if (rarePostings + cost(t) > RANK_BUDGET) break
    rare.push(t)
    rarePostings += cost(t)
  }
  const common = kept.slice(rare.length)
  const commonPostings = common.reduce((sum, t) => sum + cost(t), 0)
  const fromId = Math.max(0, Math.floor(stats.corpus * (1 - Math.min(1, SLICE_BUDGET / Math.max(1, commonPostings)))))
  // The snippet marks the rarest term, and those about as rare (within 2×) alongside it.
  const distinctive = kept.filter((t) => t.documents <= 2 * kept[0].documents)
  const others = kept.slice(distinctive.length)
  const tiered =
    others.length > 0 &&
    others[0].documents >= RARITY_GAP * distinctive[distinctive.length - 1].documents &&
    others.every((t) => t.documents >= COMMON_SHARE * stats.corpus)
  return {
    kept,
    dropped,
    ranked: rare.length ? orOf(rare) : null,
    common: common.length ? { terms: common.map((t) => ({ ...t, idf: idf(stats.corpus, t.documents) })), fromId } : null,
    distinctive: orOf(distinctive),
    distinctiveTerms: distinctive.map((t) => t.expression),
    tiered,
    searched
  }
}

/** Postings read to match a term: a phrase reads those of each of its words. */
function cost(t: PlannedTerm): number {
  return t.documents * (t.term.phrase ? t.term.text.split(/[\s\-._/\\@]+/).length : 1)
}

/** bm25's idf as FTS5 computes it (floored the same way), so JS and FTS5 scores add up. */
function idf(corpus: number, documents: number): number {
  return Math.max(1e-6, Math.log((corpus - documents + 0.5) / (documents + 0.5)))
}

function orOf(terms: PlannedTerm[]): string {
  return terms.map((t) => t.expression).join(' OR ')
}

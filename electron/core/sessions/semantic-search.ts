import type { StateDb } from '../db/state-db'
import type { Embedder } from '../provider/embeddings'
import { identityOf } from './semantic-fill'
import { readIndexState, sameIdentity, vectorTableExists, type SemanticIndexState } from './semantic-index'
import { loadVectorExtension } from './semantic-vec'

/** One message found by meaning; `rank` is 1 for the closest. */
export interface SemanticCandidate {
  messageId: number
  sessionId: string
  rank: number
  /** Cosine distance: 0 = same direction, 2 = opposite. */
  distance: number
}

/** sqlite-vec's ceiling on `k` in one KNN query. */
export const MAX_SEMANTIC_K = 4096

/** RRF's usual constant (Cormack et al. 2009): large enough that rank 1 does not swamp the others. */
export const RRF_K = 60

export interface SemanticQueryOptions {
  /** Leave this conversation out (it is usually already in context), as keyword search does. */
  excludeSessionId?: string | null
}

/**
 * The `k` messages nearest `queryVector`, closest first, with their sessions. Deleted messages whose
 * vectors are not purged yet are dropped. Empty when there is no index or its vectors have another
 * size than the query (made by another model); expects sqlite-vec loaded on `db`.
 */
export function semanticCandidates(db: StateDb, queryVector: Float32Array, k: number, options: SemanticQueryOptions = {}): SemanticCandidate[] {
  const state = readIndexState(db)
  if (!state || state.dimensions !== queryVector.length || !vectorTableExists(db) || k <= 0) return []
  const exclude = options.excludeSessionId ?? null
  // Excluding a session after the KNN step could leave fewer than k: ask for more, up to the ceiling.
  const wanted = Math.min(MAX_SEMANTIC_K, exclude === null ? k : k * 2 + 20)
  const rows = db
    .prepare(
      `WITH knn AS (SELECT rowid, distance FROM message_vectors WHERE embedding MATCH ? AND k = ?)
       SELECT knn.rowid AS id, knn.distance AS distance, m.session_id AS sessionId
       FROM knn JOIN messages m ON m.id = knn.rowid`
    )
    .all(queryVector, wanted) as Array<{ id: number; distance: number; sessionId: string }>
  // Sorted here: vec0 refuses any ORDER BY but its own, and equal distances need a fixed order.
  return rows
    .sort((a, b) => a.distance - b.distance || a.id - b.id)
    .filter((row) => row.sessionId !== exclude)
    .slice(0, k)
    .map((row, index) => ({ messageId: row.id, sessionId: row.sessionId, rank: index + 1, distance: row.distance }))
}

/**
 * Reciprocal rank fusion: each id scores the sum over the lists it appears in of 1 / (k + rank),
 * ranks starting at 1. Needs no comparable scores between lists (BM25 and cosine distance are not),
 * which is why it fuses keyword and meaning results. Ties keep the order ids were first seen in,
 * list by list, so the result is deterministic. A repeated id in one list counts at its best rank.
 */
export function reciprocalRankFusion<T>(lists: readonly (readonly T[])[], k = RRF_K): Array<{ id: T; score: number }> {
  // words-ok: a caller bug (the constant is ours), for logs
  if (!(k >= 0)) throw new RangeError(`The fusion constant must be 0 or more, not ${k}.`)
  const scores = new Map<T, number>()
  for (const list of lists) {
    const seen = new Set<T>()
    list.forEach((id, index) => {
      if (seen.has(id)) return
      seen.add(id)
      scores.set(id, (scores.get(id) ?? 0) + 1 / (k + index + 1))
    })
  }
  return [...scores.entries()].map(([id, score]) => ({ id, score })).sort((a, b) => b.score - a.score)
}

/** One conversation in the fused ranking, with where each kind of search placed it (1 = first; null = not found). */
export interface FusedSession {
  sessionId: string
  score: number
  keywordRank: number | null
  meaningRank: number | null
  /** Its message closest in meaning (for the snippet of a conversation only meaning found). */
  meaningMessageId: number | null
}

/**
 * Fuses the keyword ranking of conversations (best first, as session search ranks them) with the
 * messages found by meaning, conversation by conversation: a conversation's meaning rank is that of
 * its closest message. Fused at the conversation level, not per message, so the keyword ranking's own
 * scores (and any thresholds on them) stay as they are; on equal fused scores the keyword order wins.
 */
export function fuseSessions(keywordSessionIds: readonly string[], meaning: readonly SemanticCandidate[], k = RRF_K): FusedSession[] {
  const closest = new Map<string, SemanticCandidate>()
  for (const candidate of [...meaning].sort((a, b) => a.rank - b.rank)) if (!closest.has(candidate.sessionId)) closest.set(candidate.sessionId, candidate)
  const meaningOrder = [...closest.keys()]
  const keywordRank = new Map(keywordSessionIds.map((id, i) => [id, i + 1]))
  const meaningRank = new Map(meaningOrder.map((id, i) => [id, i + 1]))
  return reciprocalRankFusion([keywordSessionIds, meaningOrder], k).map(({ id, score }) => ({
    sessionId: id,
    score,
    keywordRank: keywordRank.get(id) ?? null,
    meaningRank: meaningRank.get(id) ?? null,
    meaningMessageId: closest.get(id)?.messageId ?? null
  }))
}

/** Where search by meaning stands, as data (the faces word it). */
export type SemanticStatus =
  | { state: 'off' }
  | { state: 'unavailable'; code: 'unsupported_platform' | 'load_failed'; detail: string; reason: string }
  /** On, but no vectors for this model yet (never filled, or the model changed since). */
  | { state: 'empty'; model: string }
  | { state: 'ready'; model: string; dimensions: number; embedded: number; skipped: number }

export function semanticStatus(db: StateDb, embedder: Embedder | null, extensionPath?: string): SemanticStatus {
  if (!embedder) return { state: 'off' }
  const support = loadVectorExtension(db, extensionPath)
  if (!support.available) return { state: 'unavailable', code: support.code, detail: support.detail, reason: support.reason }
  const state = currentState(db, embedder)
  if (!state || state.dimensions === 0) return { state: 'empty', model: embedder.settings.model }
  return { state: 'ready', model: state.model, dimensions: state.dimensions, embedded: state.embedded, skipped: state.skipped }
}

/**
 * Embeds `query` and finds the nearest messages. Empty, with no request made, when the feature is
 * off, sqlite-vec is missing or the index belongs to another model; a provider error propagates,
 * and the caller keeps the keyword results (see the fusion in session search).
 */
export async function searchByMeaning(db: StateDb, embedder: Embedder | null, query: string, k: number, options: SemanticQueryOptions & { signal?: AbortSignal; extensionPath?: string } = {}): Promise<SemanticCandidate[]> {
  if (!embedder || !query.trim()) return []
  if (!loadVectorExtension(db, options.extensionPath).available) return []
  const state = currentState(db, embedder)
  if (!state || state.dimensions === 0) return []
  const [vector] = await embedder.embed([query], options.signal)
  return semanticCandidates(db, vector, k, options)
}

function currentState(db: StateDb, embedder: Embedder): SemanticIndexState | null {
  const state = readIndexState(db)
  return state && sameIdentity(state, identityOf(embedder.settings)) ? state : null
}

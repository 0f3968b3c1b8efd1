import type { StateDb } from '../db/state-db'

/**
 * The vectors of search by meaning in state.db: the `semantic_index` row (migration 15) and the
 * `message_vectors` vec0 table, made here on demand because it needs sqlite-vec loaded (see
 * db/semantic-migration.ts). Every function here expects the extension loaded on `db`.
 *
 * Which messages are handled is two message ids, not a row per message: every eligible message with
 * `low <= id <= high` has its vector (or was skipped as unembeddable). Filling takes new messages
 * first (ids above `high`, oldest first), then old ones (below `low`, newest first), so recent
 * conversations become findable first and a stopped backfill resumes where it was.
 */

/** What identifies a set of vectors: a change of any of these re-embeds everything. */
export interface VectorIdentity {
  model: string
  baseURL: string
  /** As configured (0 = what the model returns). */
  requestedDimensions: number
}

export interface SemanticIndexState extends VectorIdentity {
  /** What the model returned; 0 until the first vector arrived. */
  dimensions: number
  high: number
  low: number
  embedded: number
  skipped: number
}

export interface PendingMessage {
  id: number
  content: string
}

/** Messages worth a vector: what the user and the assistant said (tool output and summaries stay keyword-only). */
export const EMBEDDABLE = `role IN ('user', 'assistant') AND content IS NOT NULL AND content <> ''`

export const VECTOR_TABLE = 'message_vectors'

interface StateRow {
  model: string
  base_url: string
  requested_dimensions: number
  dimensions: number
  high: number
  low: number
  embedded: number
  skipped: number
}

export function readIndexState(db: StateDb): SemanticIndexState | null {
  const row = db.prepare('SELECT model, base_url, requested_dimensions, dimensions, high, low, embedded, skipped FROM semantic_index WHERE id = 1').get() as StateRow | undefined
  if (!row) return null
  return {
    model: row.model,
    baseURL: row.base_url,
    requestedDimensions: row.requested_dimensions,
    dimensions: row.dimensions,
    high: row.high,
    low: row.low,
    embedded: row.embedded,
    skipped: row.skipped
  }
}

export function sameIdentity(state: VectorIdentity, identity: VectorIdentity): boolean {
  return state.model === identity.model && state.baseURL === identity.baseURL && state.requestedDimensions === identity.requestedDimensions
}

/**
 * The index for `identity`, started empty when there was none or it was made by another model,
 * endpoint or size (whose vectors are dropped: they cannot be compared with the new model's).
 */
export function prepareIndex(db: StateDb, identity: VectorIdentity, now = Date.now()): SemanticIndexState {
  // Read first: the usual case (same model) then takes no write lock.
  const current = readIndexState(db)
  if (current && sameIdentity(current, identity)) return current
  const prepare = db.transaction((): SemanticIndexState => {
    const state = readIndexState(db)
    if (state && sameIdentity(state, identity)) return state
    db.exec(`DROP TABLE IF EXISTS ${VECTOR_TABLE}`)
    db.exec('DELETE FROM semantic_index; DELETE FROM semantic_stale;')
    const top = (db.prepare('SELECT coalesce(max(id), 0) FROM messages').pluck().get() as number) ?? 0
    db.prepare(
      `INSERT INTO semantic_index (id, model, base_url, requested_dimensions, high, low, created_at)
       VALUES (1, @model, @baseURL, @requestedDimensions, @high, @low, @now)`
    ).run({ ...identity, high: top, low: top + 1, now })
    return readIndexState(db)!
  })
  return prepare.immediate()
}

/** Forgets every vector (turning the feature off for good, or `cairn search --forget-meaning`). */
export function clearIndex(db: StateDb): void {
  db.transaction(() => {
    db.exec(`DROP TABLE IF EXISTS ${VECTOR_TABLE}`)
    db.exec('DELETE FROM semantic_index; DELETE FROM semantic_stale;')
  }).immediate()
}

/** The next messages to embed: new ones first, then old ones newest first; empty when everything is done. */
export function pendingMessages(db: StateDb, state: SemanticIndexState, size: number): PendingMessage[] {
  const newer = db.prepare(`SELECT id, content FROM messages WHERE id > ? AND ${EMBEDDABLE} ORDER BY id LIMIT ?`).all(state.high, size) as PendingMessage[]
  if (newer.length > 0) return newer
  return db.prepare(`SELECT id, content FROM messages WHERE id < ? AND ${EMBEDDABLE} ORDER BY id DESC LIMIT ?`).all(state.low, size) as PendingMessage[]
}

/**
 * Stores one batch's vectors and widens the handled range over the batch, in one transaction, only
 * if the index is still the one the batch was embedded for (another process may have reset it).
 * `skipped` are messages the provider refused: counted, never retried. False when it was not stored.
 */
export function storeBatch(db: StateDb, identity: VectorIdentity, batch: PendingMessage[], vectors: Map<number, Float32Array>): boolean {
  const store = db.transaction((): boolean => {
    const state = readIndexState(db)
    if (!state || !sameIdentity(state, identity) || batch.length === 0) return false
    const size = vectors.values().next().value?.length ?? state.dimensions
    if (state.dimensions === 0 && vectors.size > 0) {
      db.exec(`CREATE VIRTUAL TABLE IF NOT EXISTS ${VECTOR_TABLE} USING vec0(embedding float[${size}] distance_metric=cosine)`)
      db.prepare('UPDATE semantic_index SET dimensions = ? WHERE id = 1').run(size)
    } else if (vectors.size > 0 && size !== state.dimensions) {
      // words-ok: the fill's failure detail for logs; the search status words it by code (search.meaning.error.*)
      throw new Error(`The embedding model returned ${size} dimensions where the index holds ${state.dimensions}.`)
    }
    let added = 0
    // A batch the provider refused whole stores no vector (and before the first, there is no table yet).
    const remove = vectors.size > 0 ? db.prepare(`DELETE FROM ${VECTOR_TABLE} WHERE rowid = ?`) : null
    const insert = vectors.size > 0 ? db.prepare(`INSERT INTO ${VECTOR_TABLE} (rowid, embedding) VALUES (?, ?)`) : null
    for (const [id, vector] of vectors) {
      // A concurrent filler (the app and the CLI) may have stored the same message: last write wins.
      if (remove!.run(BigInt(id)).changes === 0) added++
      insert!.run(BigInt(id), vector)
    }
    const ids = batch.map((m) => m.id)
    db.prepare('UPDATE semantic_index SET high = max(high, ?), low = min(low, ?), embedded = embedded + ?, skipped = skipped + ? WHERE id = 1').run(
      Math.max(...ids),
      Math.min(...ids),
      added,
      batch.length - vectors.size
    )
    return true
  })
  return store.immediate()
}

/** Removes the vectors of messages deleted since the last fill; how many went. */
export function purgeStale(db: StateDb): number {
  if (db.prepare('SELECT 1 FROM semantic_stale LIMIT 1').get() === undefined) return 0
  const purge = db.transaction((): number => {
    const ids = db.prepare('SELECT message_id FROM semantic_stale').pluck().all() as number[]
    if (ids.length === 0) return 0
    let removed = 0
    if (vectorTableExists(db)) {
      const remove = db.prepare(`DELETE FROM ${VECTOR_TABLE} WHERE rowid = ?`)
      for (const id of ids) removed += remove.run(BigInt(id)).changes
    }
    db.exec('DELETE FROM semantic_stale')
    db.prepare('UPDATE semantic_index SET embedded = max(0, embedded - ?) WHERE id = 1').run(removed)
    return removed
  })
  return purge.immediate()
}

export function vectorTableExists(db: StateDb): boolean {
  return db.prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?").get(VECTOR_TABLE) !== undefined
}

export interface IndexProgress {
  /** Embeddable messages handled (vector stored or skipped). */
  done: number
  total: number
}

/**
 * How far the index is, in messages. Counts over the whole messages table (a scan: about a second
 * at a million messages), so it runs in the CLI and when asked, not on every batch.
 */
export function indexProgress(db: StateDb, state: SemanticIndexState): IndexProgress {
  const total = db.prepare(`SELECT count(*) FROM messages WHERE ${EMBEDDABLE}`).pluck().get() as number
  const done = state.low > state.high ? 0 : (db.prepare(`SELECT count(*) FROM messages WHERE id BETWEEN ? AND ? AND ${EMBEDDABLE}`).pluck().get(state.low, state.high) as number)
  return { done, total }
}

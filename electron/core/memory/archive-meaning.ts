import type { StateDb } from '../db/state-db'
import type { Embedder } from '../provider/embeddings'
import type { ArchiveHit } from './archive-types'

/** Entries embedded per search at most, newest first: a large archive fills over several searches, never in one long wait. */
export const EMBED_PER_SEARCH = 256

export interface MeaningSearchOptions {
  limit: number
  /** The scope's SQL over `memory_archive a`, from scopeClause. */
  scope: { sql: string; params: unknown[] }
  hitOf: (row: Record<string, unknown>) => ArchiveHit
  signal?: AbortSignal
}

/**
 * The archive's search by meaning. Vectors are plain BLOBs per entry and model (memory_archive_vectors),
 * filled lazily here and compared by cosine similarity in JavaScript: an archive holds thousands of
 * entries, not the millions of messages session search keeps in sqlite-vec, and a plain table never
 * needs the extension to open, back up or salvage state.db. A vector made by another model (or size)
 * is replaced when the entry is next embedded.
 */
export async function searchArchiveByMeaning(db: StateDb, query: string, embedder: Embedder, options: MeaningSearchOptions): Promise<ArchiveHit[]> {
  const text = query.trim()
  if (!text) return []
  const model = modelIdentity(embedder)
  await fillMissing(db, embedder, model, options)
  const [queryVector] = await embedder.embed([text], options.signal)
  if (!queryVector) return []
  const rows = db
    .prepare(
      `SELECT a.*, v.vector AS vector FROM memory_archive a JOIN memory_archive_vectors v ON v.archive_id = a.id
       WHERE v.model = ? ${options.scope.sql}`
    )
    .all(model, ...options.scope.params) as Array<Record<string, unknown> & { vector: Buffer }>
  const queryNorm = norm(queryVector)
  return rows
    .map((row) => ({ row, score: cosine(queryVector, queryNorm, vectorOf(row.vector)) }))
    .filter((scored) => Number.isFinite(scored.score))
    .sort((a, b) => b.score - a.score || (b.row.id as number) - (a.row.id as number))
    .slice(0, options.limit)
    .map(({ row, score }) => options.hitOf({ ...row, score }))
}

/** Embeds the in-scope entries that have no vector of `model` yet (at most {@link EMBED_PER_SEARCH}). */
async function fillMissing(db: StateDb, embedder: Embedder, model: string, options: MeaningSearchOptions): Promise<void> {
  const missing = db
    .prepare(
      `SELECT a.id, a.text FROM memory_archive a LEFT JOIN memory_archive_vectors v ON v.archive_id = a.id AND v.model = ?
       WHERE v.archive_id IS NULL ${options.scope.sql} ORDER BY a.id DESC LIMIT ${EMBED_PER_SEARCH}`
    )
    .all(model, ...options.scope.params) as Array<{ id: number; text: string }>
  if (missing.length === 0) return
  const vectors = await embedder.embed(
    missing.map((row) => row.text),
    options.signal
  )
  const upsert = db.prepare('INSERT OR REPLACE INTO memory_archive_vectors (archive_id, model, vector) VALUES (?, ?, ?)')
  db.transaction(() => {
    missing.forEach((row, index) => {
      const vector = vectors[index]
      // The entry may have been removed while the request ran: its vector would have no row to belong to.
      if (vector && db.prepare('SELECT 1 FROM memory_archive WHERE id = ?').get(row.id)) upsert.run(row.id, model, Buffer.from(vector.buffer, vector.byteOffset, vector.byteLength))
    })
  })()
}

/** What identifies vectors that can be compared: the model, where it runs, and the size asked for. */
function modelIdentity(embedder: Embedder): string {
  const { model, baseURL, dimensions } = embedder.settings
  return `${model}@${baseURL}#${dimensions}`
}

function vectorOf(blob: Buffer): Float32Array {
  const copy = new Uint8Array(blob.byteLength)
  copy.set(blob)
  return new Float32Array(copy.buffer)
}

function norm(vector: Float32Array): number {
  let sum = 0
  for (const value of vector) sum += value * value
  return Math.sqrt(sum)
}

function cosine(query: Float32Array, queryNorm: number, other: Float32Array): number {
  if (other.length !== query.length) return Number.NaN
  let dot = 0
  let otherSum = 0
  for (let i = 0; i < query.length; i++) {
    dot += query[i] * other[i]
    otherSum += other[i] * other[i]
  }
  const denominator = queryNorm * Math.sqrt(otherSum)
  return denominator === 0 ? Number.NaN : dot / denominator
}

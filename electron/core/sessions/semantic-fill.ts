import type { StateDb } from '../db/state-db'
import { EMBEDDING_BATCH, type Embedder, type EmbeddingSettings } from '../provider/embeddings'
import { ProviderError } from '../provider/provider-errors'
import { indexProgress, pendingMessages, prepareIndex, purgeStale, readIndexState, storeBatch, type IndexProgress, type PendingMessage, type VectorIdentity } from './semantic-index'
import { loadVectorExtension } from './semantic-vec'

export interface FillOptions {
  signal?: AbortSignal
  /** Messages per request (default {@link EMBEDDING_BATCH}). */
  batchSize?: number
  /** Stop after this many batches (the app's idle queue takes a few at a time); default: until done. */
  maxBatches?: number
  /** Asked before each batch; false stops (a chat started). */
  keepGoing?: () => boolean
  /** After each stored batch, with messages handled out of all embeddable ones (counted once, at the start). */
  onProgress?: (progress: IndexProgress) => void
  /** Count done/total at the start (a scan of messages; the CLI's backfill wants it, the app's queue does not). */
  countProgress?: boolean
  /** Test seam: where sqlite-vec is loaded from. */
  extensionPath?: string
}

export type FillOutcome =
  | { status: 'done' | 'paused' | 'cancelled'; embedded: number; skipped: number; progress: IndexProgress | null }
  /** Nothing was stored for the batch that failed; what was stored before it stays, and the next fill retries it. */
  | { status: 'failed'; embedded: number; skipped: number; progress: IndexProgress | null; error: ProviderError | Error }
  | { status: 'unavailable'; reason: string }

export function identityOf(settings: EmbeddingSettings): VectorIdentity {
  return { model: settings.model, baseURL: settings.baseURL, requestedDimensions: settings.dimensions }
}

/**
 * Embeds messages that have no vector yet, batch by batch, new ones first, then the backfill of old
 * ones (see semantic-index.ts). Each batch is stored with the range it covers in one transaction, so
 * a cancel, a crash or a provider error loses at most the batch in flight and the next fill resumes
 * there. A batch the provider refuses as a bad request is retried one message at a time, and only the
 * messages it still refuses are skipped, so one odd message never blocks the rest.
 */
export async function fillSemanticIndex(db: StateDb, embedder: Embedder, options: FillOptions = {}): Promise<FillOutcome> {
  const support = loadVectorExtension(db, options.extensionPath)
  if (!support.available) return { status: 'unavailable', reason: support.reason }
  const identity = identityOf(embedder.settings)
  let state = prepareIndex(db, identity)
  purgeStale(db)
  const size = Math.max(1, options.batchSize ?? EMBEDDING_BATCH)
  const counted = options.countProgress ? indexProgress(db, state) : null
  let embedded = 0
  let skipped = 0
  const summary = (status: 'done' | 'paused' | 'cancelled') => ({ status, embedded, skipped, progress: counted })
  for (let batches = 0; ; batches++) {
    if (options.signal?.aborted) return summary('cancelled')
    if ((options.maxBatches !== undefined && batches >= options.maxBatches) || (options.keepGoing && !options.keepGoing())) return summary('paused')
    const batch = pendingMessages(db, state, size)
    if (batch.length === 0) return summary('done')
    let vectors: Map<number, Float32Array>
    try {
      vectors = await embedBatch(embedder, batch, options.signal)
    } catch (error) {
      if (error instanceof ProviderError && error.code === 'cancelled') return summary('cancelled')
      return { status: 'failed', embedded, skipped, progress: counted, error: error as Error }
    }
    try {
      if (!storeBatch(db, identity, batch, vectors)) return summary('cancelled')
    } catch (error) {
      // The database refused the batch (busy, disk full, vectors of another size): nothing of it was stored.
      return { status: 'failed', embedded, skipped, progress: counted, error: error as Error }
    }
    embedded += vectors.size
    skipped += batch.length - vectors.size
    if (counted) {
      counted.done += batch.length
      options.onProgress?.({ ...counted })
    }
    state = readIndexState(db)!
  }
}

async function embedBatch(embedder: Embedder, batch: PendingMessage[], signal?: AbortSignal): Promise<Map<number, Float32Array>> {
  try {
    const vectors = await embedder.embed(batch.map((m) => m.content), signal)
    return new Map(batch.map((m, i) => [m.id, vectors[i]]))
  } catch (error) {
    if (!refused(error)) throw error
    if (batch.length === 1) return new Map()
  }
  const vectors = new Map<number, Float32Array>()
  for (const message of batch) {
    try {
      const [vector] = await embedder.embed([message.content], signal)
      vectors.set(message.id, vector)
    } catch (error) {
      if (!refused(error)) throw error
    }
  }
  return vectors
}

/** The provider refused the input itself (too long, unsupported characters): trying again will not help. */
function refused(error: unknown): boolean {
  return error instanceof ProviderError && error.code === 'bad_request'
}

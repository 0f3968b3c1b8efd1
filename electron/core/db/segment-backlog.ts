import { setImmediate as nextTurn } from 'node:timers/promises'
import { markedWordsOf } from './cjk-segment'
import type { StateDb } from './state-db'

/**
 * The background pass that segments messages written before migration 14 (see migration-14.ts):
 * until it reaches them they are found by trigrams only, so 部署 or 京都 is not found as a word.
 */

/** Messages segmented per transaction: a cancel or a crash loses at most this many, and the write lock is held a few tens of ms. */
export const SEGMENT_BATCH = 100
/** …or fewer, once their text reaches this many characters (segmentation costs by the character). */
export const SEGMENT_BATCH_CHARS = 200_000

/** Messages that may hold words the word index cannot see: anything but ASCII (the same test the store uses). */
const CANDIDATE = `segmented IS NULL AND (length(CAST(content AS BLOB)) > length(content) OR length(CAST(tool_call_text AS BLOB)) > length(tool_call_text))`

export interface SegmentProgress {
  /** Backlog messages handled so far (segmented, or found to hold no such words). */
  done: number
  total: number
}

export interface SegmentOptions {
  signal?: AbortSignal
  /** Messages per batch (default {@link SEGMENT_BATCH}). */
  batchSize?: number
  /** Asked before each batch; false stops (a chat started in the app). */
  keepGoing?: () => boolean
  /** After each batch. */
  onProgress?: (progress: SegmentProgress) => void
  /**
   * Where the backlog stood when the caller last looked (e.g. the app's previous pass): counting it
   * again reads the text of every message left (about a second at a million messages).
   */
  known?: SegmentProgress | null
}

export interface SegmentOutcome {
  /** `done`: nothing left; `cancelled`: the signal fired; `paused`: `keepGoing` said stop. Either way the next pass resumes. */
  status: 'done' | 'cancelled' | 'paused'
  /** Messages this pass gave words to. */
  segmented: number
  progress: SegmentProgress
}

interface BacklogRow {
  afterId: number
  throughId: number
  done: number
}

function readBacklog(db: StateDb): BacklogRow | null {
  // A database migrated before the pass existed was segmented inside the migration: nothing is left.
  const table = db.prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'segment_backlog'").get()
  if (!table) return null
  const row = db.prepare('SELECT after_id AS afterId, through_id AS throughId, done FROM segment_backlog WHERE id = 1').get() as BacklogRow | undefined
  return row ?? null
}

/**
 * How far the backlog is; null when there is none (every message has its words). Counts the messages
 * left (a scan of the part of the table not done yet), so callers keep the answer rather than ask per batch.
 */
export function segmentProgress(db: StateDb): SegmentProgress | null {
  const row = readBacklog(db)
  if (!row) return null
  const left = db.prepare(`SELECT count(*) FROM messages WHERE id > ? AND id <= ? AND ${CANDIDATE}`).pluck().get(row.afterId, row.throughId) as number
  return { done: row.done, total: row.done + left }
}

/**
 * Segments the backlog batch by batch, oldest first, yielding to the event loop between batches.
 * Each batch reads, segments and writes its messages and moves the cursor in one IMMEDIATE
 * transaction, so no other writer can change a message between its read and its write, and a crash
 * loses at most the batch in flight. A message that already has words (written meanwhile by the
 * store) is never overwritten; messages newer than the backlog were segmented when written. The
 * trigram row of each message is redone by the update trigger, row by row: a rebuild of the whole
 * index at the end would be one transaction as long as the history, the very wait this pass avoids.
 */
export async function segmentBacklog(db: StateDb, options: SegmentOptions = {}): Promise<SegmentOutcome> {
  const size = Math.max(1, Math.floor(options.batchSize ?? SEGMENT_BATCH))
  const start = options.known === undefined ? segmentProgress(db) : options.known
  if (!start) return { status: 'done', segmented: 0, progress: { done: 0, total: 0 } }
  const page = db.prepare(
    `SELECT id, content, tool_call_text AS toolCallText FROM messages WHERE id > ? AND id <= ? AND ${CANDIDATE} ORDER BY id LIMIT ?`
  )
  const write = db.prepare('UPDATE messages SET segmented = ? WHERE id = ? AND segmented IS NULL')
  const advance = db.prepare('UPDATE segment_backlog SET after_id = ?, done = done + ? WHERE id = 1')
  const finish = db.prepare('DELETE FROM segment_backlog WHERE id = 1')
  const batch = db.transaction((): { segmented: number; done: number; finished: boolean } => {
    const row = readBacklog(db)
    if (!row) return { segmented: 0, done: 0, finished: true }
    const rows = page.all(row.afterId, row.throughId, size) as Array<{ id: number; content: string | null; toolCallText: string | null }>
    let segmented = 0
    let handled = 0
    let chars = 0
    for (const message of rows) {
      const words = markedWordsOf(message.content, message.toolCallText)
      if (words) segmented += write.run(words, message.id).changes
      handled++
      chars += (message.content?.length ?? 0) + (message.toolCallText?.length ?? 0)
      // Long tool output or imported pages: the batch ends early, so it holds the write lock no longer than a hundred chat messages would.
      if (chars >= SEGMENT_BATCH_CHARS) break
    }
    const finished = handled === rows.length && rows.length < size
    if (finished) finish.run()
    else advance.run(rows[handled - 1].id, handled)
    return { segmented, done: row.done + handled, finished }
  })
  const total = start.total
  let segmented = 0
  let progress: SegmentProgress = { ...start }
  for (;;) {
    if (options.signal?.aborted) return { status: 'cancelled', segmented, progress }
    if (options.keepGoing && !options.keepGoing()) return { status: 'paused', segmented, progress }
    const step = batch.immediate()
    segmented += step.segmented
    if (step.finished) {
      progress = { done: total, total }
      options.onProgress?.(progress)
      return { status: 'done', segmented, progress }
    }
    // Another process may share the work: the table's count is the truth, capped at what was counted.
    progress = { done: Math.min(step.done, total), total }
    options.onProgress?.(progress)
    await nextTurn()
  }
}

/**
 * Queues for the pass every message so far that may still lack its words, unless a backlog is
 * already queued: a salvaged database is migrated fresh (no backlog) and then filled with copied
 * rows, some of them not segmented yet. Harmless when all have words: the pass only fills empty ones.
 */
export function queueSegmentBacklog(db: StateDb): void {
  db.prepare('INSERT OR IGNORE INTO segment_backlog (id, after_id, through_id) SELECT 1, 0, max(id) FROM messages HAVING max(id) IS NOT NULL').run()
}

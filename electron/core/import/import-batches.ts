import type { StateDb } from '../db/state-db'
import { emptyCounts, importReviewId, type ImportCounts, type ImportProblem, type ImportSource } from './types'

/** One row of `imports`: a batch, listed and undone as a whole. Times are milliseconds since the epoch. */
export interface ImportBatch {
  id: number
  source: ImportSource
  path: string
  startedAt: number
  /** Null while it runs, or when it was cut short (a crash): its writes are still on the timeline. */
  finishedAt: number | null
  counts: ImportCounts
  problems: ImportProblem[]
  revertedAt: number | null
}

interface BatchRow {
  id: number
  source: ImportSource
  path: string
  started_at: number
  finished_at: number | null
  counts: string
  problems: string
  reverted_at: number | null
}

/** The `imports` table. */
export class ImportBatches {
  constructor(private readonly db: StateDb) {}

  start(source: ImportSource, path: string, at = Date.now()): number {
    const info = this.db.prepare('INSERT INTO imports (source, path, started_at) VALUES (?, ?, ?)').run(source, path, at)
    return Number(info.lastInsertRowid)
  }

  finish(id: number, counts: ImportCounts, problems: ImportProblem[], at = Date.now()): void {
    this.db.prepare('UPDATE imports SET finished_at = ?, counts = ?, problems = ? WHERE id = ?').run(at, JSON.stringify(counts), JSON.stringify(problems), id)
  }

  /**
   * Finishes a batch, or takes its row away when it brought nothing in (everything was imported
   * before): an empty batch would only clutter the imports list and the timeline's undo. Returns
   * whether the batch was kept.
   */
  finishOrDrop(id: number, counts: ImportCounts, problems: ImportProblem[], at = Date.now()): boolean {
    if (this.broughtAnything(id)) {
      this.finish(id, counts, problems, at)
      return true
    }
    this.db.prepare('DELETE FROM imports WHERE id = ?').run(id)
    return false
  }

  /** Whether anything of the batch is in the data home: a change on the timeline, a conversation or a proposal. */
  private broughtAnything(id: number): boolean {
    const reviewId = importReviewId(id)
    return Boolean(
      this.db.prepare('SELECT 1 FROM ledger WHERE review_id = ? LIMIT 1').get(reviewId) ??
        this.db.prepare('SELECT 1 FROM sessions WHERE import_id = ? LIMIT 1').get(id) ??
        this.db.prepare('SELECT 1 FROM proposals WHERE review_id = ? LIMIT 1').get(reviewId)
    )
  }

  markReverted(id: number, at = Date.now()): void {
    this.db.prepare('UPDATE imports SET reverted_at = ? WHERE id = ?').run(at, id)
  }

  get(id: number): ImportBatch | null {
    const row = this.db.prepare('SELECT * FROM imports WHERE id = ?').get(id) as BatchRow | undefined
    return row ? toBatch(row) : null
  }

  /** Newest first. */
  list(limit = 200): ImportBatch[] {
    return (this.db.prepare('SELECT * FROM imports ORDER BY id DESC LIMIT ?').all(limit) as BatchRow[]).map(toBatch)
  }
}

function toBatch(row: BatchRow): ImportBatch {
  return {
    id: row.id,
    source: row.source,
    path: row.path,
    startedAt: row.started_at,
    finishedAt: row.finished_at,
    counts: countsOf(parseJson(row.counts) as Partial<ImportCounts> | null),
    problems: (parseJson(row.problems) as ImportProblem[] | null) ?? [],
    revertedAt: row.reverted_at
  }
}

/** Stored counts over the empty ones, group by group, so a batch recorded before a count existed reads it as 0. */
function countsOf(stored: Partial<ImportCounts> | null): ImportCounts {
  const counts = emptyCounts()
  return {
    memory: { ...counts.memory, ...stored?.memory },
    skills: { ...counts.skills, ...stored?.skills },
    sessions: { ...counts.sessions, ...stored?.sessions }
  }
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text)
  } catch {
    return null
  }
}

import { closeSync, openSync, readSync, statSync } from 'node:fs'
import type Database from 'better-sqlite3'

/**
 * Why state.db cannot be used: SQLite's own codes (`SQLITE_CORRUPT…`, `SQLITE_NOTADB`) or what the
 * file check at open found before SQLite looked (`EMPTY`: a 0-byte file where a database was;
 * `TRUNCATED`: shorter than its header says).
 */
export type CorruptionCode = 'EMPTY' | 'TRUNCATED' | 'SQLITE_NOTADB' | 'SQLITE_CORRUPT' | `SQLITE_CORRUPT_${string}`

/**
 * state.db is damaged or is not a database. Expected, not a bug: every face prints {@link message}
 * (one line naming `cairn doctor`) and stops, and nothing in the file is touched.
 */
export class CorruptDatabaseError extends Error {
  constructor(
    readonly path: string,
    readonly code: CorruptionCode,
    /** What is wrong, in a few words (English). */
    readonly detail: string,
    options?: { cause?: unknown }
  ) {
    super(
      `${path} is damaged (${detail}). Run "cairn doctor" to see what is wrong, then "cairn doctor --repair" to move it aside and save what can still be read.`,
      options
    )
    this.name = 'CorruptDatabaseError'
  }
}

/** True for SQLite errors that mean the file is damaged or not a database (not busy, not full, not a bug). */
export function isCorruptionError(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code
  return typeof code === 'string' && (code === 'SQLITE_NOTADB' || code === 'SQLITE_CORRUPT' || code.startsWith('SQLITE_CORRUPT_'))
}

/** `error` as a {@link CorruptDatabaseError} on `path` when it is one (or a SQLite corruption error), else null. */
export function asCorruptDatabaseError(error: unknown, path: string): CorruptDatabaseError | null {
  if (error instanceof CorruptDatabaseError) return error
  if (!isCorruptionError(error)) return null
  const code = (error as { code: CorruptionCode }).code
  const detail = code === 'SQLITE_NOTADB' ? 'it is not a SQLite database' : `SQLite says: ${(error as Error).message}`
  return new CorruptDatabaseError(path, code, detail, { cause: error })
}

export interface FileProblem {
  code: CorruptionCode
  detail: string
}

const MAGIC = 'SQLite format 3\0'

/**
 * Checks the file before SQLite opens it, reading only its 100-byte header (cost: one small read):
 * a 0-byte file, a file that is not SQLite, and a file shorter than its header says (checked only
 * when no write-ahead log holds pages, since in WAL mode the log may hold pages past the file's end).
 * Returns null when the file looks whole or does not exist. Damage inside the file is found by
 * {@link probeBtrees} and by SQLite as queries touch it.
 */
export function inspectDatabaseFile(path: string): FileProblem | null {
  const size = sizeOf(path)
  if (size === null) return null
  const walBefore = sizeOf(`${path}-wal`) ?? 0
  if (size === 0) {
    return { code: 'EMPTY', detail: walBefore > 0 ? 'it is an empty file, 0 bytes, with only its write-ahead log left' : 'it is an empty file, 0 bytes' }
  }
  const header = readHeader(path)
  if (header.length < 100 || header.toString('latin1', 0, 16) !== MAGIC) {
    return { code: 'SQLITE_NOTADB', detail: 'it is not a SQLite database' }
  }
  const rawPageSize = header.readUInt16BE(16)
  const pageSize = rawPageSize === 1 ? 65536 : rawPageSize
  if (pageSize < 512 || (pageSize & (pageSize - 1)) !== 0) return { code: 'SQLITE_NOTADB', detail: 'its header is damaged (impossible page size)' }
  const changeCounter = header.readUInt32BE(24)
  const pages = header.readUInt32BE(28)
  const sizeValidFor = header.readUInt32BE(92)
  // The page count in the header is only trusted when it was written with the current change counter.
  if (pages > 0 && sizeValidFor === changeCounter && size < pages * pageSize) {
    // A log that appeared meanwhile means another process is writing: the file may be mid-checkpoint.
    const walAfter = sizeOf(`${path}-wal`) ?? 0
    if (walBefore === 0 && walAfter === 0 && sizeOf(path) === size) {
      return { code: 'TRUNCATED', detail: `it was cut short: ${size} of ${pages * pageSize} bytes are left` }
    }
  }
  return null
}

/**
 * Reads the schema and walks the first and last row of every ordinary table: a root page or an edge
 * page that is missing or overwritten fails here, at open, instead of half-way through a command.
 * About 2 ms on a 100 MB state.db, where `PRAGMA quick_check` takes about half a second (every page).
 * Throws SQLite's own error (see {@link asCorruptDatabaseError}).
 */
export function probeBtrees(db: Database.Database): void {
  const objects = db.prepare("SELECT type, name, sql FROM sqlite_master WHERE type = 'table' AND rootpage > 0").all() as Array<{
    type: string
    name: string
    sql: string | null
  }>
  for (const { name, sql } of objects) {
    const table = `"${name.replace(/"/g, '""')}"`
    if (/without\s+rowid/i.test(sql ?? '')) {
      db.prepare(`SELECT * FROM ${table} LIMIT 1`).all()
      continue
    }
    db.prepare(`SELECT * FROM ${table} ORDER BY rowid ASC LIMIT 1`).all()
    db.prepare(`SELECT * FROM ${table} ORDER BY rowid DESC LIMIT 1`).all()
  }
}

function sizeOf(path: string): number | null {
  try {
    return statSync(path).size
  } catch {
    return null
  }
}

function readHeader(path: string): Buffer {
  const fd = openSync(path, 'r')
  try {
    const buffer = Buffer.alloc(100)
    const read = readSync(fd, buffer, 0, 100, 0)
    return buffer.subarray(0, read)
  } finally {
    closeSync(fd)
  }
}

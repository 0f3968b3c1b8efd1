import { constants, copyFileSync, existsSync, linkSync, rmSync } from 'node:fs'
import { randomBytes } from 'node:crypto'
import Database from 'better-sqlite3'
import { asCorruptDatabaseError, CorruptDatabaseError, inspectDatabaseFile, probeBtrees } from './corrupt'
import { migrations } from './migrations'

export { CorruptDatabaseError, isCorruptionError, asCorruptDatabaseError } from './corrupt'

export type StateDb = Database.Database

export interface OpenStateDbOptions {
  /** Path of a better-sqlite3 `.node` built for a different runtime (the Electron app passes its own). */
  nativeBinding?: string
  readonly?: boolean
  /**
   * How long a statement waits for another process's lock before failing with SQLITE_BUSY. The
   * Electron main process passes a short one: its queries run on the UI thread.
   */
  busyTimeoutMs?: number
}

/** Long enough for a review worker's or a CLI's write to finish: processes off the UI thread can wait. */
export const DEFAULT_BUSY_TIMEOUT_MS = 10_000

/**
 * Opens `state.db`: WAL so the app, the CLI and the review worker can read while one writes,
 * a busy timeout so concurrent writers wait instead of failing, and the versioned migrations.
 *
 * A missing file is created whole (migrated under a temporary name, then linked into place), so
 * state.db is never an empty file Cairn is still filling: a 0-byte state.db is damage, and is refused
 * like any other. A damaged file (see {@link inspectDatabaseFile} and {@link probeBtrees}, checked
 * before anything is written) throws {@link CorruptDatabaseError} and is left exactly as it was.
 */
export function openStateDb(path: string, options: OpenStateDbOptions = {}): StateDb {
  const busyTimeout = options.busyTimeoutMs ?? DEFAULT_BUSY_TIMEOUT_MS
  if (!Number.isInteger(busyTimeout) || busyTimeout < 0) throw new RangeError(`busyTimeoutMs must be a whole number of milliseconds, not ${busyTimeout}.`)
  const onDisk = path !== '' && path !== ':memory:' && !path.startsWith('file:')
  if (onDisk) {
    if (!options.readonly && !existsSync(path)) createWhole(path, options.nativeBinding)
    const problem = inspectDatabaseFile(path)
    if (problem) throw new CorruptDatabaseError(path, problem.code, problem.detail)
  }
  let db: StateDb | null = null
  try {
    db = new Database(path, {
      nativeBinding: options.nativeBinding,
      readonly: options.readonly ?? false,
      // Never let SQLite create an empty file in place of one that vanished since the check.
      fileMustExist: onDisk
    })
    db.pragma(`busy_timeout = ${busyTimeout}`)
    // Read before anything is written: a damaged file must stay as it was found.
    probeBtrees(db)
    if (!options.readonly) {
      db.pragma('journal_mode = WAL')
      db.pragma('synchronous = NORMAL')
      db.pragma('foreign_keys = ON')
      migrate(db)
    }
    return db
  } catch (error) {
    try {
      db?.close()
    } catch {
      // Closing a damaged database can fail too; the error that matters is the first one.
    }
    throw asCorruptDatabaseError(error, path) ?? error
  }
}

/**
 * Creates a fully migrated database at `path` atomically: built under a private name in rollback
 * mode (so it is one self-contained file), then hard-linked into place, which fails if another
 * process got there first (its database wins; ours is discarded). File systems without hard links
 * get an exclusive copy.
 */
function createWhole(path: string, nativeBinding: string | undefined): void {
  const temp = `${path}.new-${process.pid}-${randomBytes(4).toString('hex')}`
  try {
    const db = new Database(temp, { nativeBinding })
    try {
      db.pragma('journal_mode = DELETE')
      migrate(db)
    } finally {
      db.close()
    }
    try {
      linkSync(temp, path)
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code
      if (code === 'EEXIST') return
      if (code !== 'EPERM' && code !== 'ENOTSUP' && code !== 'EOPNOTSUPP' && code !== 'EXDEV') throw error
      try {
        copyFileSync(temp, path, constants.COPYFILE_EXCL)
      } catch (copyError) {
        if ((copyError as NodeJS.ErrnoException).code !== 'EEXIST') throw copyError
      }
    }
  } finally {
    rmSync(temp, { force: true })
    rmSync(`${temp}-journal`, { force: true })
  }
}

/** Applies pending migrations in order, each in its own IMMEDIATE transaction so two processes never migrate at once. */
export function migrate(db: StateDb): number {
  for (const migration of migrations) {
    const apply = db.transaction(() => {
      const current = db.pragma('user_version', { simple: true }) as number
      if (current >= migration.version) return
      db.exec(migration.sql)
      db.pragma(`user_version = ${migration.version}`)
    })
    apply.immediate()
  }
  return db.pragma('user_version', { simple: true }) as number
}

import Database from 'better-sqlite3'
import { migrations } from './migrations'

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
 */
export function openStateDb(path: string, options: OpenStateDbOptions = {}): StateDb {
  const busyTimeout = options.busyTimeoutMs ?? DEFAULT_BUSY_TIMEOUT_MS
  if (!Number.isInteger(busyTimeout) || busyTimeout < 0) throw new RangeError(`busyTimeoutMs must be a whole number of milliseconds, not ${busyTimeout}.`)
  const db = new Database(path, {
    nativeBinding: options.nativeBinding,
    readonly: options.readonly ?? false
  })
  db.pragma(`busy_timeout = ${busyTimeout}`)
  if (!options.readonly) {
    db.pragma('journal_mode = WAL')
    db.pragma('synchronous = NORMAL')
    db.pragma('foreign_keys = ON')
    migrate(db)
  }
  return db
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

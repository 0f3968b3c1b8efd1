import Database from 'better-sqlite3'
import { migrations } from './migrations'

export type StateDb = Database.Database

export interface OpenStateDbOptions {
  /** Path of a better-sqlite3 `.node` built for a different runtime (the Electron app passes its own). */
  nativeBinding?: string
  readonly?: boolean
}

/**
 * Opens `state.db`: WAL so the app, the CLI and the review worker can read while one writes,
 * a busy timeout so concurrent writers wait instead of failing, and the versioned migrations.
 */
export function openStateDb(path: string, options: OpenStateDbOptions = {}): StateDb {
  const db = new Database(path, {
    nativeBinding: options.nativeBinding,
    readonly: options.readonly ?? false
  })
  db.pragma('busy_timeout = 10000')
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

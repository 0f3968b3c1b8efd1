import Database from 'better-sqlite3'
import { holdsUnsegmented } from './migrations'
import { salvagePages, type TableSalvage } from './salvage-pages'
import { queueSegmentBacklog } from './segment-backlog'

export type { TableSalvage } from './salvage-pages'
import type { StateDb } from './state-db'

export interface SalvageReport {
  /** Why SQLite could not read the damaged file at all (then only the raw pages were read), or null. */
  sqliteError: string | null
  /** Whether the raw pages were read too (when SQLite could not read everything). */
  pagesScanned: boolean
  tables: TableSalvage[]
}

/**
 * The tables of state.db, parents before children. FTS5 indexes are not copied: inserting messages
 * fills them through the triggers, and {@link rebuildSearchIndexes} rebuilds them afterwards. The
 * tables of migration 5 and later are missing from an older file, which is not damage. Their rows are
 * too small for the raw-page scan to tell apart (under five columns: the skill flags, memory pins and
 * learning state), so they come back only through SQLite.
 */
export const SALVAGE_ORDER = [
  'sessions',
  'message_branches',
  'messages',
  'message_attachments',
  'ledger',
  'skill_usage',
  'review_runs',
  'proposals',
  'skill_flags',
  'memory_pins',
  'learning_state',
  'imports',
  'memory_confirmations',
  'memory_hidden',
  'memory_hidden_log',
  'memory_archive'
] as const

/** Stop probing a table after this many unreadable stretches: the file is more hole than table. */
const MAX_HOLES_PER_TABLE = 10_000

/**
 * Copies what can still be read of the damaged database at `damagedPath` into `fresh` (a newly
 * migrated state.db). First through SQLite, table by table and row by row in rowid order: when a
 * read fails the copy jumps ahead over the damaged stretch (by doubling steps) and goes on from the
 * next row it can read, so one bad page costs the rows on it, not the rest of the table. When SQLite
 * could not read everything (the schema or a table is damaged), the raw pages are read too (see
 * {@link recordsOnPages}) and every row they hold that is not saved yet is added. Rows whose parent
 * was lost keep their data: a message whose session is gone gets a placeholder "Recovered conversation".
 */
export function salvageInto(damagedPath: string, fresh: StateDb, options: { nativeBinding?: string } = {}): SalvageReport {
  const tables = new Map<string, TableSalvage>(SALVAGE_ORDER.map((table) => [table, { table, saved: 0, fromPages: 0, refused: 0, unreadable: 0 }]))
  let sqliteError: string | null = null
  let pagesScanned = false
  fresh.pragma('foreign_keys = OFF')
  try {
    let source: Database.Database | null = null
    try {
      source = new Database(damagedPath, { readonly: true, fileMustExist: true, nativeBinding: options.nativeBinding })
      // Lets SQLite open a file shorter than its header says (read-only: nothing can be written).
      source.unsafeMode(true)
      source.pragma('writable_schema = ON')
      if (source.prepare('SELECT count(*) FROM sqlite_master').pluck().get() === 0) throw new Error('it holds no tables')
    } catch (error) {
      sqliteError = (error as Error).message
      source?.close()
      source = null
    }
    if (source) {
      try {
        for (const table of SALVAGE_ORDER) copyTable(source, fresh, tables.get(table)!)
      } finally {
        source.close()
      }
    }
    if (sqliteError !== null || [...tables.values()].some((t) => t.unreadable > 0)) {
      pagesScanned = salvagePages(damagedPath, fresh, tables)
    }
    fresh.transaction(() => {
      repairReferences(fresh)
      // Copied messages still waiting for their Chinese/Japanese words get them from the background pass.
      queueSegmentBacklog(fresh)
    })()
  } finally {
    fresh.pragma('foreign_keys = ON')
  }
  return { sqliteError, pagesScanned, tables: [...tables.values()] }
}

function copyTable(source: Database.Database, fresh: StateDb, result: TableSalvage): void {
  const table = result.table
  const columns = (fresh.pragma(`table_info(${table})`) as Array<{ name: string }>).map((c) => c.name)
  if (!tableExists(source, table)) return
  const readable = sourceColumns(source, table)
  if (readable === null) {
    result.unreadable = 1
    return
  }
  const shared = columns.filter((name) => readable.has(name))
  if (shared.length === 0) return
  const list = shared.map((name) => `"${name}"`).join(', ')
  const insert = fresh.prepare(`INSERT INTO ${table} (${list}) VALUES (${shared.map(() => '?').join(', ')})`)
  const after = source.prepare(`SELECT rowid AS __salvage_rowid, ${list} FROM ${table} WHERE rowid > ? ORDER BY rowid`)
  const firstAfter = source.prepare(`SELECT rowid FROM ${table} WHERE rowid > ? ORDER BY rowid LIMIT 1`).pluck()
  const save = fresh.transaction((rows: Array<Record<string, unknown>>) => {
    for (const row of rows) {
      try {
        insert.run(...shared.map((name) => row[name]))
        result.saved++
      } catch {
        result.refused++
      }
    }
  })

  let cursor = Number.MIN_SAFE_INTEGER
  for (;;) {
    const batch: Array<Record<string, unknown>> = []
    let failed = false
    try {
      for (const row of after.iterate(cursor) as IterableIterator<Record<string, unknown>>) {
        batch.push(row)
        cursor = Number(row.__salvage_rowid)
        if (batch.length >= 500) save(batch.splice(0))
      }
    } catch {
      failed = true
    }
    save(batch)
    if (!failed) return
    result.unreadable++
    const next = result.unreadable > MAX_HOLES_PER_TABLE ? null : nextReadableRowid(firstAfter, cursor)
    if (next === null) return
    cursor = next - 1
  }
}

/** The first rowid past `cursor` that a seek can reach without an error, trying ever larger jumps. */
function nextReadableRowid(firstAfter: Database.Statement, cursor: number): number | null {
  for (let step = 1; cursor + step < Number.MAX_SAFE_INTEGER; step *= 2) {
    try {
      const found = firstAfter.get(cursor + step) as number | bigint | undefined
      // Nothing past this point: either the table ends here or the rest is unreachable.
      if (found === undefined) return null
      return Number(found)
    } catch {
      // Still inside the damaged stretch: jump further.
    }
  }
  return null
}

/**
 * Whether the damaged file's schema names `table`. An older file simply lacks the newer tables; when
 * the schema itself cannot be read the table counts as present, so {@link sourceColumns} reports it unreadable.
 */
function tableExists(source: Database.Database, table: string): boolean {
  try {
    return source.prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?").get(table) !== undefined
  } catch {
    return true
  }
}

/** Column names of `table` in the damaged file, or null when even its schema cannot be read. */
function sourceColumns(source: Database.Database, table: string): Set<string> | null {
  try {
    const info = source.pragma(`table_info(${table})`) as Array<{ name: string }>
    return info.length ? new Set(info.map((c) => c.name)) : null
  } catch {
    return null
  }
}

/** Makes the salvaged rows consistent again where their parents were lost with a damaged page. */
function repairReferences(db: StateDb): void {
  db.exec(`
    INSERT INTO sessions (id, title, source, started_at, updated_at, state)
    SELECT session_id, 'Recovered conversation', 'recovered', min(created_at), max(created_at), '{}'
    FROM messages WHERE session_id NOT IN (SELECT id FROM sessions) GROUP BY session_id;
    UPDATE sessions SET parent_session_id = NULL
    WHERE parent_session_id IS NOT NULL AND parent_session_id NOT IN (SELECT id FROM sessions);
    DELETE FROM message_branches WHERE session_id NOT IN (SELECT id FROM sessions);
    -- A stored version whose branch row was lost hangs after the last shown message before it.
    INSERT INTO message_branches (id, session_id, after_id, created_at)
    SELECT m.branch_id, m.session_id,
      coalesce((SELECT max(s.id) FROM messages s WHERE s.session_id = m.session_id AND s.branch_id IS NULL AND s.id < min(m.id)), 0),
      min(m.created_at)
    FROM messages m WHERE m.branch_id IS NOT NULL AND m.branch_id NOT IN (SELECT id FROM message_branches) GROUP BY m.branch_id;
    DELETE FROM message_attachments WHERE message_id NOT IN (SELECT id FROM messages);
    UPDATE sessions SET message_count = (SELECT count(*) FROM messages WHERE messages.session_id = sessions.id AND messages.branch_id IS NULL);
    UPDATE ledger SET reverted_by = NULL WHERE reverted_by IS NOT NULL AND reverted_by NOT IN (SELECT id FROM ledger);
  `)
}

/**
 * Rebuilds the search indexes of `messages` and of `message_attachments` from the tables
 * themselves: the word indexes (external content, FTS5 'rebuild') and the trigram indexes
 * (contentless, so emptied and refilled with the rows that hold unsegmented script, as their insert
 * triggers would).
 */
export function rebuildSearchIndexes(db: StateDb): void {
  db.transaction(() => {
    db.exec(`
      INSERT INTO messages_fts (messages_fts) VALUES ('rebuild');
      INSERT INTO messages_trigram (messages_trigram) VALUES ('delete-all');
      INSERT INTO messages_trigram (rowid, body)
      SELECT id, coalesce(content, '') || ' ' || coalesce(tool_call_text, '') || coalesce(' ' || segmented, '') FROM messages
      WHERE segmented IS NOT NULL OR ${holdsUnsegmented('content')} OR ${holdsUnsegmented('tool_call_text')};
      INSERT INTO attachments_fts (attachments_fts) VALUES ('rebuild');
      INSERT INTO attachments_trigram (attachments_trigram) VALUES ('delete-all');
      INSERT INTO attachments_trigram (rowid, body)
      SELECT rowid, name || ' ' || text FROM message_attachments
      WHERE ${holdsUnsegmented('text')} OR ${holdsUnsegmented('name')};
    `)
  }).immediate()
}

/** Problems FTS5 finds in the search indexes (empty when they agree with the messages). */
export function checkSearchIndexes(db: StateDb): string[] {
  const problems: string[] = []
  // rank 1 also compares a word index with the rows it indexes (external content); a trigram index
  // keeps no text to compare with, so only its own structure is checked.
  const indexes = [['messages_fts', 1], ['messages_trigram', 0], ['attachments_fts', 1], ['attachments_trigram', 0]] as const
  for (const [index, againstContent] of indexes) {
    try {
      db.prepare(`INSERT INTO ${index} (${index}, rank) VALUES ('integrity-check', ${againstContent})`).run()
    } catch (error) {
      problems.push(`${index}: ${(error as Error).message}`)
    }
  }
  return problems
}

import Database from 'better-sqlite3'
import type { MemoryTargetName } from '../../shared/ipc/domain'
import type { ArchiveRecallHit, RecallArchive } from '../../electron/core/recall/builtin-provider'

/**
 * A small archive of memory entries over a real SQLite file with FTS5, standing in for the data home's
 * archive (`core.archive`) in recall tests: words OR-ed, ranked by bm25, hidden entries kept but
 * flagged, and when each was last recalled.
 */
export class TestArchive implements RecallArchive {
  readonly db: Database.Database
  readonly recalled: Array<{ ids: number[]; at: number }> = []

  constructor(path: string) {
    this.db = new Database(path)
    this.db.pragma('journal_mode = WAL')
    this.db.pragma('synchronous = NORMAL') // as state.db
    this.db.exec(`
      CREATE TABLE IF NOT EXISTS test_archive (
        id INTEGER PRIMARY KEY, text TEXT NOT NULL, target TEXT NOT NULL DEFAULT 'memory', project_key TEXT, hidden INTEGER NOT NULL DEFAULT 0, last_recalled_at INTEGER
      );
      CREATE VIRTUAL TABLE IF NOT EXISTS test_archive_fts USING fts5(text, content='test_archive', content_rowid='id', tokenize='porter unicode61');
      CREATE TRIGGER IF NOT EXISTS test_archive_ai AFTER INSERT ON test_archive BEGIN
        INSERT INTO test_archive_fts(rowid, text) VALUES (new.id, new.text);
      END;
    `)
  }

  add(text: string, options: { projectKey?: string; hidden?: boolean; target?: MemoryTargetName } = {}): number {
    const result = this.db
      .prepare('INSERT INTO test_archive (text, target, project_key, hidden) VALUES (?, ?, ?, ?)')
      .run(text, options.target ?? 'memory', options.projectKey ?? null, options.hidden ? 1 : 0)
    return Number(result.lastInsertRowid)
  }

  setHidden(id: number, hidden: boolean): void {
    this.db.prepare('UPDATE test_archive SET hidden = ? WHERE id = ?').run(hidden ? 1 : 0, id)
  }

  get(id: number): { hidden: boolean } | null {
    const row = this.db.prepare('SELECT hidden FROM test_archive WHERE id = ?').get(id) as { hidden: number } | undefined
    return row ? { hidden: row.hidden === 1 } : null
  }

  /** Many rows in one transaction (the benchmark's 100,000). */
  addMany(texts: readonly string[]): void {
    const insert = this.db.prepare('INSERT INTO test_archive (text) VALUES (?)')
    this.db.transaction(() => {
      for (const text of texts) insert.run(text)
    })()
  }

  /** Scoped as the real archive: a project key, its entries and those of no project; null, those of no project; left out, all. */
  search(query: string, options: { limit?: number; projectKey?: string | null } = {}): ArchiveRecallHit[] {
    const words = query.toLowerCase().match(/[\p{L}\p{N}]{2,}/gu) ?? []
    if (!words.length) return []
    const match = [...new Set(words)].map((word) => `"${word}"`).join(' OR ')
    const scope = options.projectKey === undefined ? '' : options.projectKey === null ? 'AND a.project_key IS NULL' : 'AND (a.project_key IS NULL OR a.project_key = ?)'
    const scopeParams = typeof options.projectKey === 'string' ? [options.projectKey] : []
    const rows = this.db
      .prepare(
        `SELECT a.id, a.text, a.target, a.project_key AS projectKey, a.hidden, bm25(test_archive_fts) AS rank
         FROM test_archive_fts JOIN test_archive a ON a.id = test_archive_fts.rowid
         WHERE test_archive_fts MATCH ? ${scope} ORDER BY rank LIMIT ?`
      )
      .all(match, ...scopeParams, options.limit ?? 10) as Array<{ id: number; text: string; target: MemoryTargetName; projectKey: string | null; hidden: number; rank: number }>
    return rows.map((row) => ({ id: row.id, text: row.text, target: row.target, projectKey: row.projectKey, hidden: row.hidden === 1, score: -row.rank }))
  }

  markRecalled(ids: number[], at: number): void {
    this.recalled.push({ ids, at })
    const update = this.db.prepare('UPDATE test_archive SET last_recalled_at = ? WHERE id = ?')
    this.db.transaction(() => {
      for (const id of ids) update.run(at, id)
    })()
  }

  lastRecalledAt(id: number): number | null {
    return (this.db.prepare('SELECT last_recalled_at AS at FROM test_archive WHERE id = ?').get(id) as { at: number | null }).at
  }

  close(): void {
    this.db.close()
  }
}

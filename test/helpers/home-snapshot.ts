import { createHash } from 'node:crypto'
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs'
import { join, relative } from 'node:path'
import type { StateDb } from '../../electron/core/db/state-db'

/**
 * What a data home holds, to diff before and after something that must leave no trace: every file
 * (by content hash; state.db and its WAL are compared by rows instead, since SQLite rewrites pages it
 * did not change in meaning) and every row of every ordinary table of state.db.
 */
export interface HomeSnapshot {
  files: Record<string, string>
  rows: Record<string, string[]>
}

export function snapshotHome(home: string, db: StateDb): HomeSnapshot {
  return { files: fileHashes(home), rows: tableRows(db) }
}

function fileHashes(home: string): Record<string, string> {
  const files: Record<string, string> = {}
  const walk = (dir: string): void => {
    if (!existsSync(dir)) return
    for (const name of readdirSync(dir)) {
      const path = join(dir, name)
      const rel = relative(home, path)
      if (statSync(path).isDirectory()) {
        files[`${rel}/`] = 'dir'
        walk(path)
      } else if (!/^state\.db(-wal|-shm)?$/.test(rel)) {
        files[rel] = createHash('sha256').update(readFileSync(path)).digest('hex')
      }
    }
  }
  walk(home)
  return files
}

function tableRows(db: StateDb): Record<string, string[]> {
  // Virtual tables (FTS5, vec0) are read through their shadow tables, which are ordinary ones.
  const tables = db.prepare("SELECT name FROM sqlite_master WHERE type = 'table' AND sql NOT LIKE 'CREATE VIRTUAL TABLE%' ORDER BY name").all() as Array<{ name: string }>
  const rows: Record<string, string[]> = {}
  for (const { name } of tables) {
    rows[name] = (db.prepare(`SELECT * FROM "${name.replace(/"/g, '""')}"`).all() as unknown[]).map((row) => JSON.stringify(row, (_key, value: unknown) => (Buffer.isBuffer(value) ? value.toString('base64') : value)))
  }
  return rows
}

import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import Database from 'better-sqlite3'
import { afterEach, describe, expect, it } from 'vitest'
import { migrations } from '../../../electron/core/db/migrations'
import { openStateDb } from '../../../electron/core/db/state-db'
import { searchSessions } from '../../../electron/core/sessions'

let dir: string | undefined
afterEach(() => {
  if (dir) rmSync(dir, { recursive: true, force: true })
  dir = undefined
})

describe('migration 16: the word index vocabulary', () => {
  it('lets a history written before it complete the words of its old messages', () => {
    dir = mkdtempSync(join(tmpdir(), 'cairn-vocab-'))
    const path = join(dir, 'state.db')
    const old = new Database(path)
    for (const migration of migrations.filter((m) => m.version < 16)) old.exec(migration.sql)
    old.pragma('user_version = 15')
    old.prepare("INSERT INTO sessions (id, title, started_at, updated_at) VALUES ('s1', 'Package managers', 1, 1)").run()
    old.prepare("INSERT INTO messages (session_id, role, content, created_at) VALUES ('s1', 'user', 'Should this repo use pnpm workspaces?', 1)").run()
    old.close()

    const db = openStateDb(path)
    try {
      expect(db.pragma('user_version', { simple: true })).toBeGreaterThanOrEqual(16)
      expect(db.prepare("SELECT term, doc FROM messages_vocab WHERE term >= 'pnp' AND term < 'pnq'").all()).toEqual([{ term: 'pnpm', doc: 1 }])
      expect(searchSessions(db, 'pnp', { includeCurrent: true, prefixLastWord: true }).sessions.map((s) => s.sessionId)).toEqual(['s1'])
    } finally {
      db.close()
    }
  })
})

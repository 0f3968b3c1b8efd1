import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import Database from 'better-sqlite3'
import { afterEach, describe, expect, it } from 'vitest'
import { createBackup, restoreBackup } from '../../../electron/core/backup'
import { CairnCore } from '../../../electron/core/cairn'
import { setEntryHidden } from '../../../electron/core/memory/entry-hiding'
import { projectKeyFor } from '../../../electron/core/memory/project-key'
import { tempDir } from './backup-home'

const dirs: string[] = []
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true })
})

function dir(prefix: string): string {
  const path = tempDir(prefix)
  dirs.push(path)
  return path
}

const HIDDEN = 'User is recovering from a knee operation'

/** Backs `home` up and restores it into a fresh folder, whose path it answers. */
async function roundTrip(home: string): Promise<string> {
  const out = join(dir('cairn-layers-out-'), 'home.tar.gz')
  await createBackup({ home, out, cairnVersion: '0.0.0-test' })
  const target = join(dir('cairn-layers-dst-'), 'restored')
  const restored = await restoreBackup({ archive: out, home: target, confirmReplace: async () => true, confirmSettings: async () => true })
  expect(restored.restored).toBe(true)
  return target
}

/** A row for any table: each column that must have a value gets one of its declared type. */
function insertAnyRow(db: Database.Database, table: string): void {
  const columns = db.prepare(`PRAGMA table_info(${table})`).all() as Array<{ name: string; type: string; notnull: number; dflt_value: unknown; pk: number }>
  const needed = columns.filter((column) => column.notnull === 1 && column.dflt_value === null && !(column.pk === 1 && /INT/i.test(column.type)))
  const value = (type: string) => (/INT/i.test(type) ? 1_700_000_000_000 : /REAL|FLOA|DOUB/i.test(type) ? 0.5 : /BLOB/i.test(type) ? Buffer.from([1, 2]) : 'User keeps bees in the garden')
  db.prepare(`INSERT INTO ${table} (${needed.map((column) => column.name).join(', ')}) VALUES (${needed.map(() => '?').join(', ')})`).run(...needed.map((column) => value(column.type)))
}

describe('backup and restore of the memory layers of issue 28', () => {
  it('carries the hidden marks and their history: the restored home still leaves the entry out of the prompt', async () => {
    const home = dir('cairn-layers-src-')
    const core = await CairnCore.open({ home })
    try {
      await core.memory.add('user', HIDDEN, { write: { source: 'user' } })
      await core.memory.add('user', 'User lives in Lyon', { write: { source: 'user' } })
      expect(setEntryHidden(core, 'user', 'knee', true).ok).toBe(true)
    } finally {
      await core.close()
    }
    const restored = await CairnCore.open({ home: await roundTrip(home) })
    try {
      expect(restored.memory.read('user').entries).toContain(HIDDEN)
      expect(restored.memoryHidden.isHidden('user', HIDDEN)).toBe(true)
      expect(restored.memoryHidden.changesOf('user', [HIDDEN]).map((change) => change.hidden)).toEqual([true])
      expect(restored.memory.loadSnapshot().user).not.toContain('knee')
    } finally {
      await restored.close()
    }
  })

  it('carries a workspace\'s project memory folder byte for byte', async () => {
    const home = dir('cairn-layers-src-')
    await (await CairnCore.open({ home })).close()
    const workspace = dir('cairn-layers-ws-')
    const project = join('memories', 'projects', projectKeyFor(workspace), 'PROJECT.md')
    const text = 'Tests run with vitest\n§\nThe API lives in server/api'
    mkdirSync(join(home, project, '..'), { recursive: true })
    writeFileSync(join(home, project), text)
    const target = await roundTrip(home)
    expect(readFileSync(join(target, project), 'utf8')).toBe(text)
  })

  it('carries the archive: its entries, hidden marks, recall dates and ledger rows, searchable and revertible in the restored home', async () => {
    const home = dir('cairn-layers-src-')
    const core = await CairnCore.open({ home })
    let ledgerId = 0
    try {
      const kept = core.archive.add({ target: 'memory', text: 'The staging database is called heronfield.', source: 'overflow', write: { source: 'agent' } })
      const quiet = core.archive.add({ target: 'user', projectKey: null, text: 'User had a hard year in 2019.', source: 'retired' })
      if (kept.kind !== 'added' || quiet.kind !== 'added') throw new Error('not archived')
      ledgerId = kept.ledgerId
      core.archive.setHidden(quiet.entry.id, true)
      core.archive.markRecalled([kept.entry.id], 1_700_000_000_000)
      insertAnyRow(core.db as unknown as Database.Database, 'memory_archive')
    } finally {
      await core.close()
    }
    const source = new Database(join(home, 'state.db'), { readonly: true })
    const rows = source.prepare('SELECT * FROM memory_archive ORDER BY rowid').all()
    source.close()
    const restored = await CairnCore.open({ home: await roundTrip(home) })
    try {
      expect(restored.db.prepare('SELECT * FROM memory_archive ORDER BY rowid').all()).toEqual(rows)
      expect(restored.archive.search('heronfield').map((hit) => [hit.text, hit.lastRecalledAt])).toEqual([['The staging database is called heronfield.', 1_700_000_000_000]])
      expect(restored.archive.search('2019')).toEqual([])
      expect((await restored.revert(ledgerId)).ok).toBe(true)
      expect(restored.archive.search('heronfield')).toEqual([])
    } finally {
      await restored.close()
    }
  })

  it('keeps the Mem0 store (its databases through SQLite\'s online backup) and leaves the provider\'s send log out', async () => {
    const home = dir('cairn-layers-src-')
    await (await CairnCore.open({ home })).close()
    mkdirSync(join(home, 'mem0'), { recursive: true })
    const vectors = new Database(join(home, 'mem0', 'vectors.db'))
    vectors.pragma('journal_mode = WAL')
    vectors.exec("CREATE TABLE vectors (id TEXT, payload TEXT); INSERT INTO vectors VALUES ('m1', 'User prefers pnpm')")
    mkdirSync(join(home, 'memory-provider'), { recursive: true })
    writeFileSync(join(home, 'memory-provider', 'mem0.json'), '{"sent":[]}')
    try {
      // The open connection keeps the row in the WAL file: only the online backup sees it.
      const target = await roundTrip(home)
      expect(existsSync(join(target, 'mem0', 'vectors.db-wal'))).toBe(false)
      const copy = new Database(join(target, 'mem0', 'vectors.db'), { readonly: true })
      expect(copy.prepare('SELECT payload FROM vectors').pluck().all()).toEqual(['User prefers pnpm'])
      copy.close()
      expect(existsSync(join(target, 'memory-provider'))).toBe(false)
    } finally {
      vectors.close()
    }
  })
})

import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import Database from 'better-sqlite3'
import { afterEach, describe, expect, it } from 'vitest'
import { CairnCore } from '../../../electron/core/cairn'
import { rebuildSearchIndexes, salvageInto } from '../../../electron/core/db/salvage'
import { openStateDb, type StateDb } from '../../../electron/core/db/state-db'
import { cellsOn, overwritePages, pagesOf, seedHome } from './damaged-home'

const dirs: string[] = []
const open: StateDb[] = []
afterEach(() => {
  for (const db of open.splice(0)) if (db.open) db.close()
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true })
})

function salvage(damaged: string) {
  const dir = mkdtempSync(join(tmpdir(), 'cairn-salvage-'))
  dirs.push(dir)
  const fresh = openStateDb(join(dir, 'state.db'))
  open.push(fresh)
  const report = salvageInto(damaged, fresh)
  rebuildSearchIndexes(fresh)
  return { fresh, report, table: (name: string) => report.tables.find((t) => t.table === name)! }
}

const LEARNING_TABLES = ['proposals', 'skill_flags', 'memory_pins', 'learning_state']

describe('salvaging what the user decided about learning', () => {
  it('brings back pins, flags, proposals, learning state and import batches from a damaged file', async () => {
    const seeded = await seedHome(60, 'cairn-salvage-learning-')
    dirs.push(seeded.home)
    const core = await CairnCore.open({ home: seeded.home })
    core.skillFlags.set('deploy', { pinned: true })
    core.skillFlags.set('old-notes', { disabled: true })
    core.memoryPins.set('memory', 'The build server is called atlas.', true)
    core.db
      .prepare(
        `INSERT INTO proposals (created_at, origin, review_id, kind, target, before, after, cause)
         VALUES (1, 'review', 'r1', 'memory.add', 'memories/USER.md', NULL, 'Prefers tabs', 'ask_mode')`
      )
      .run()
    core.db.prepare("INSERT INTO learning_state (key, value, updated_at) VALUES ('userTurns', '7', 1)").run()
    // An import batch: without its row, `cairn import undo` could no longer find what it brought in.
    core.db.prepare("INSERT INTO imports (source, path, started_at, finished_at, counts) VALUES ('hermes', '/home/me/.hermes', 1, 2, '{\"memory\":3}')").run()
    await core.close()
    // Damage the conversations, so the copy has holes to skip.
    const leaves = pagesOf(seeded.stateDb, 'messages', 'leaf').slice(2, 4)
    expect(cellsOn(seeded.stateDb, 'messages', leaves)).toBeGreaterThan(0)
    for (const page of leaves) overwritePages(seeded.stateDb, page, 1)

    const { fresh, table } = salvage(seeded.stateDb)
    expect(table('messages').unreadable).toBeGreaterThan(0)
    expect(table('skill_flags').saved).toBe(2)
    expect(table('memory_pins').saved).toBe(1)
    expect(table('proposals').saved).toBe(1)
    expect(table('learning_state').saved).toBe(1)
    expect(table('imports').saved).toBe(1)
    expect(fresh.prepare('SELECT source, path, counts FROM imports').get()).toEqual({ source: 'hermes', path: '/home/me/.hermes', counts: '{"memory":3}' })
    expect(fresh.prepare('SELECT name, pinned, disabled FROM skill_flags ORDER BY name').all()).toEqual([
      { name: 'deploy', pinned: 1, disabled: 0 },
      { name: 'old-notes', pinned: 0, disabled: 1 }
    ])
    expect(fresh.prepare('SELECT after, state, cause FROM proposals').get()).toEqual({ after: 'Prefers tabs', state: 'pending', cause: 'ask_mode' })
    expect(fresh.pragma('foreign_key_check')).toEqual([])
  })

  it('a file from before these tables existed is not damaged for lacking them', async () => {
    const seeded = await seedHome(20, 'cairn-salvage-v4-')
    dirs.push(seeded.home)
    // What a Cairn before migration 5 left: no learning tables, no model columns on review runs.
    const old = new Database(seeded.stateDb)
    old.exec(`
      DROP TABLE proposals; DROP TABLE skill_flags; DROP TABLE memory_pins; DROP TABLE learning_state;
      ALTER TABLE review_runs DROP COLUMN model; ALTER TABLE review_runs DROP COLUMN prompt_tokens;
      ALTER TABLE review_runs DROP COLUMN completion_tokens;
      PRAGMA user_version = 4;
    `)
    old.close()

    const { report, table } = salvage(seeded.stateDb)
    expect(report.sqliteError).toBeNull()
    expect(report.pagesScanned).toBe(false)
    for (const name of LEARNING_TABLES) expect(table(name)).toMatchObject({ saved: 0, unreadable: 0, refused: 0 })
    expect(table('sessions').saved).toBe(20)
    expect(table('messages').saved).toBe(40)
    expect(table('ledger').saved).toBeGreaterThan(0)
  })
})

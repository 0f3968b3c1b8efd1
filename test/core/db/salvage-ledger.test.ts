import { copyFileSync, mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import Database from 'better-sqlite3'
import { afterEach, describe, expect, it } from 'vitest'
import { salvageInto, type SalvageReport } from '../../../electron/core/db/salvage'
import { openStateDb, type StateDb } from '../../../electron/core/db/state-db'
import { overwritePages, seedHome } from './damaged-home'

const dirs: string[] = []
const open: StateDb[] = []
afterEach(() => {
  for (const db of open.splice(0)) if (db.open) db.close()
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true })
})

type LedgerState = { kind: string; after: string | null; state: string; writer: string | null }

/** A seeded home (one committed memory row) plus a row a killed write left pending and one reconciliation marked a conflict. */
async function homeWithUnsettledRows(): Promise<{ home: string; stateDb: string; rows: LedgerState[] }> {
  const seeded = await seedHome(5, 'cairn-salvage-ledger-')
  dirs.push(seeded.home)
  const db = new Database(seeded.stateDb)
  const insert = db.prepare(
    `INSERT INTO ledger (at, kind, target, source, before, after, meta, state, writer) VALUES (?, 'memory.add', 'memories/MEMORY.md', 'agent', NULL, ?, '{"store":"memory"}', ?, ?)`
  )
  insert.run(Date.now(), 'Deploys go through staging.', 'pending', 'somehost:4242')
  insert.run(Date.now(), 'The staging box is called vega.', 'conflict', 'somehost:4343')
  db.close()
  return { home: seeded.home, stateDb: seeded.stateDb, rows: ledgerOf(seeded.stateDb) }
}

function ledgerOf(path: string): LedgerState[] {
  const db = new Database(path, { readonly: true })
  try {
    const columns = new Set((db.pragma('table_info(ledger)') as Array<{ name: string }>).map((c) => c.name))
    const extra = columns.has('state') ? ', state, writer' : ", 'none' AS state, NULL AS writer"
    return db.prepare(`SELECT kind, after${extra} FROM ledger ORDER BY id`).all() as LedgerState[]
  } finally {
    db.close()
  }
}

let lastReport: SalvageReport | null = null

function salvage(damaged: string): StateDb {
  const dir = mkdtempSync(join(tmpdir(), 'cairn-salvage-'))
  dirs.push(dir)
  const fresh = openStateDb(join(dir, 'state.db'))
  open.push(fresh)
  lastReport = salvageInto(damaged, fresh)
  return fresh
}

/** The last salvage could not go through SQLite and read the raw pages. */
const readRawPages = () => lastReport?.sqliteError !== null && lastReport?.pagesScanned === true

const ledgerIn = (db: StateDb) => db.prepare('SELECT kind, after, state, writer FROM ledger ORDER BY id').all() as LedgerState[]

/** The same file as a Cairn from before row states (schema 3) left it: the ledger without `state` and `writer`. */
function asOldDatabase(path: string): void {
  const db = new Database(path)
  db.exec(`
    DELETE FROM ledger WHERE state <> 'committed';
    DROP INDEX ledger_unsettled;
    ALTER TABLE ledger DROP COLUMN writer;
    ALTER TABLE ledger DROP COLUMN state;
    VACUUM;
  `)
  db.pragma('wal_checkpoint(TRUNCATE)')
  db.close()
}

describe('salvage keeps the ledger rows’ states', () => {
  it('through SQLite: a pending row stays pending with its writer (reconciliation judges it), a conflict stays a conflict', async () => {
    const { stateDb, rows } = await homeWithUnsettledRows()
    expect(rows.map((row) => row.state)).toEqual(['committed', 'pending', 'conflict'])
    expect(ledgerIn(salvage(stateDb))).toEqual(rows)
    expect(readRawPages()).toBe(false)
  })

  it('from the raw pages (the schema page destroyed): the same states and writers come back', async () => {
    const { stateDb, rows } = await homeWithUnsettledRows()
    const db = new Database(stateDb)
    db.pragma('wal_checkpoint(TRUNCATE)')
    db.close()
    overwritePages(stateDb, 1, 1)
    expect(ledgerIn(salvage(stateDb))).toEqual(rows)
    expect(readRawPages()).toBe(true)
  })

  it('a database from before row states: its rows come back committed, through SQLite and from the raw pages', async () => {
    const { home, stateDb } = await homeWithUnsettledRows()
    asOldDatabase(stateDb)
    expect(ledgerOf(stateDb)).toEqual([{ kind: 'memory.add', after: 'The build server is called atlas.', state: 'none', writer: null }])
    const committed = [{ kind: 'memory.add', after: 'The build server is called atlas.', state: 'committed', writer: null }]
    expect(ledgerIn(salvage(stateDb))).toEqual(committed)
    const damaged = join(home, 'damaged.db')
    copyFileSync(stateDb, damaged)
    overwritePages(damaged, 1, 1)
    expect(ledgerIn(salvage(damaged))).toEqual(committed)
    expect(readRawPages()).toBe(true)
  })
})

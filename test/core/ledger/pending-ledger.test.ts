import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import type { LearnedChange } from '../../../shared/ledger'
import { ensureHome, type HomePaths } from '../../../electron/core/config/home'
import { migrations } from '../../../electron/core/db/migrations'
import { openStateDb, type StateDb } from '../../../electron/core/db/state-db'
import { withLock } from '../../../electron/core/fs/lock'
import { Ledger } from '../../../electron/core/ledger/ledger'
import { reconcileLedger } from '../../../electron/core/ledger/reconcile'
import { memoryPendingJudge } from '../../../electron/core/memory/memory-reconcile'

let home: string
let paths: HomePaths
let db: StateDb
let ledger: Ledger

beforeEach(() => {
  home = mkdtempSync(join(tmpdir(), 'cairn-ledger-'))
  paths = ensureHome(home)
  db = openStateDb(paths.stateDb)
  ledger = new Ledger(db)
})

afterEach(() => {
  db.close()
  rmSync(home, { recursive: true, force: true })
})

const add = (after: string): LearnedChange => ({ kind: 'memory.add', target: 'memories/MEMORY.md', before: null, after, meta: { store: 'memory' } })
const host = () => ({ ledger, ledgerJudges: [memoryPendingJudge({ dataHome: home, dir: paths.memoriesDir })] })

describe('pending ledger rows', () => {
  it('migrations are numbered in order, and version 4 gives every row a state', () => {
    const versions = migrations.map((migration) => migration.version)
    expect(versions).toEqual([...versions].sort((a, b) => a - b))
    expect(new Set(versions).size).toBe(versions.length)
    expect(versions).toContain(4)
    expect(db.pragma('user_version', { simple: true })).toBe(Math.max(...versions))
    const columns = (db.prepare('PRAGMA table_info(ledger)').all() as { name: string }[]).map((column) => column.name)
    expect(columns).toEqual(expect.arrayContaining(['state', 'writer']))
  })

  it('are off the timeline until committed; listeners hear about them only then; abort leaves nothing', () => {
    const heard: string[] = []
    ledger.onRecord((entry) => heard.push(String(entry.after)))
    const pending = ledger.begin([add('fact A'), add('fact B')], { source: 'agent' })
    expect(ledger.list()).toEqual([])
    expect(ledger.unsettled().map((row) => [row.state, row.after, row.writer?.endsWith(`:${process.pid}`)])).toEqual([
      ['pending', 'fact A', true],
      ['pending', 'fact B', true]
    ])
    expect(ledger.get(ledger.unsettled()[0].id)).toBeNull()
    expect(heard).toEqual([])
    const committed = pending.commit()
    expect(committed.map((row) => row.after)).toEqual(['fact A', 'fact B'])
    expect(ledger.list().map((row) => row.after)).toEqual(['fact B', 'fact A'])
    expect(heard).toEqual(['fact A', 'fact B'])
    expect(() => pending.commit()).toThrow(/already settled/)

    const dropped = ledger.begin([add('fact C')], { source: 'agent' })
    dropped.abort()
    expect(ledger.unsettled()).toEqual([])
    expect(ledger.list()).toHaveLength(2)
  })

  it('a commit fails when reconciliation settled the rows first (the store then undoes its change)', () => {
    const pending = ledger.begin([add('fact A')], { source: 'agent' })
    ledger.settlePending(ledger.unsettled().map((row) => row.id), 'drop')
    expect(() => pending.commit()).toThrow(/reconciled away/)
  })

  it('reconcile marks a row the file agrees with neither way as a conflict, kept off the timeline', async () => {
    writeFileSync(paths.memoryFile, 'fact A\n§\nfact C')
    // Simulate a writer that died: its rows name a process that is gone.
    ledger.begin([{ kind: 'memory.replace', target: 'memories/MEMORY.md', before: 'fact B', after: 'fact B2' }], { source: 'agent' })
    db.prepare("UPDATE ledger SET writer = 'elsewhere:1'").run()
    const result = await reconcileLedger(host(), { lockTimeoutMs: 50 })
    // Another machine's writer may be alive: the row is judged under the lock, and neither side is in the file.
    expect(result).toMatchObject({ committed: [], dropped: [], conflicts: [{ kind: 'memory.replace', after: 'fact B2' }] })
    expect(ledger.unsettled('conflict')).toHaveLength(1)
    expect(ledger.list()).toEqual([])
  })

  it('reconcile leaves a live writer\'s rows alone while it holds the file lock', async () => {
    writeFileSync(paths.memoryFile, 'fact A')
    ledger.begin([add('fact B')], { source: 'agent' })
    const result = await withLock(paths.memoryFile, () => reconcileLedger(host(), { lockTimeoutMs: 50 }))
    expect(result.skipped).toEqual([{ entry: expect.objectContaining({ after: 'fact B' }), reason: expect.stringMatching(/locked by a running Cairn process/) }])
    expect(ledger.unsettled('pending')).toHaveLength(1)
    // Once the lock is free the row is judged: the file never got fact B.
    expect(await reconcileLedger(host())).toMatchObject({ dropped: [{ after: 'fact B' }] })
    expect(ledger.unsettled()).toEqual([])
  })
})

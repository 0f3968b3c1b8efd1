/** The data homes the fault tests run in: one per test, removed after it, with what each kind needs. */
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, afterEach, beforeAll, beforeEach } from 'vitest'
import { CairnCore } from '../../../electron/core/cairn'
import { ensureHome, type HomePaths } from '../../../electron/core/config/home'
import { openStateDb, type StateDb } from '../../../electron/core/db/state-db'
import { Ledger } from '../../../electron/core/ledger/ledger'
import type { ChildRun } from './fault-rig'

/** Both processes take a stale lock over after 2 s (the library's minimum) instead of 10 s. */
export const FAST_STALE = { CAIRN_LOCK_STALE_MS: '2000' }

export interface PausedWriterHome {
  home: string
  paths: HomePaths
  /** The child left SIGSTOPped holding a lock; woken and killed after the test if still there. */
  paused: ChildRun | null
}

/** A home for a test that pauses one writer mid-write (`withDb`: state.db created up front). */
export function pausedWriterHome(options: { withDb?: boolean } = {}): PausedWriterHome {
  const rig = { home: '', paths: undefined, paused: null } as unknown as PausedWriterHome
  beforeEach(() => {
    rig.home = mkdtempSync(join(tmpdir(), 'cairn-pause-'))
    rig.paths = ensureHome(rig.home)
    if (options.withDb) openStateDb(rig.paths.stateDb).close()
  })
  afterEach(() => {
    if (rig.paused && rig.paused.child.exitCode === null) {
      rig.paused.child.kill('SIGCONT')
      rig.paused.child.kill('SIGKILL')
    }
    rig.paused = null
    rmSync(rig.home, { recursive: true, force: true })
  })
  return rig
}

export interface KilledWriterHome {
  home: string
  paths: HomePaths
  db: StateDb
  ledger: Ledger
  /** A core opened on the home (reconciling what a killed child left), closed after the test. */
  openCore(): Promise<CairnCore>
}

/** A home with its own state.db and ledger for a test that kills a child writer mid-write. */
export function killedWriterHome(prefix: string): KilledWriterHome {
  const opened: CairnCore[] = []
  const rig = {
    openCore: async () => {
      const core = await CairnCore.open({ home: rig.home })
      opened.push(core)
      return core
    }
  } as KilledWriterHome
  // A killed child leaves its lock behind; the next write here takes it over once stale (2 s, not 10 s).
  const staleBefore = process.env.CAIRN_LOCK_STALE_MS
  beforeAll(() => {
    process.env.CAIRN_LOCK_STALE_MS = FAST_STALE.CAIRN_LOCK_STALE_MS
  })
  afterAll(() => {
    if (staleBefore === undefined) delete process.env.CAIRN_LOCK_STALE_MS
    else process.env.CAIRN_LOCK_STALE_MS = staleBefore
  })
  beforeEach(() => {
    rig.home = mkdtempSync(join(tmpdir(), prefix))
    rig.paths = ensureHome(rig.home)
    rig.db = openStateDb(rig.paths.stateDb)
    rig.ledger = new Ledger(rig.db)
  })
  afterEach(async () => {
    for (const core of opened.splice(0)) await core.close()
    rig.db.close()
    rmSync(rig.home, { recursive: true, force: true })
  })
  return rig
}

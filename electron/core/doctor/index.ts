import { existsSync } from 'node:fs'
import { join } from 'node:path'
import Database from 'better-sqlite3'
import { CairnCore } from '../cairn'
import { homePaths } from '../config/home'
import { reconcileLedger } from '../ledger/reconcile'
import { checkDatabase, repairDatabase } from './database'
import { checkLedger } from './ledger-agreement'
import { checkLocks, removeStaleLocks } from './locks'
import { checkConfig, checkSkills } from './skills-config'
import { checkTempFiles, removeHomeTempFiles } from './temp-files'
import { plural, type DoctorReport, type Finding, type RepairAction } from './types'

export type { CheckName, DoctorReport, Finding, RepairAction } from './types'

export interface DoctorOptions {
  /** better-sqlite3 binary for a non-Node runtime. */
  nativeBinding?: string
  /** Current time in ms (tests); locks and temp files are judged by age. */
  now?: number
}

/**
 * Checks a data home without changing anything: state.db (file, integrity, search indexes), the
 * ledger against the files, stale locks, orphan temp files, skills that do not load, config.json.
 * Works on a home whose database cannot be opened, which is when it is needed most.
 */
export function runDoctor(home: string, options: DoctorOptions = {}): DoctorReport {
  const paths = homePaths(home)
  const now = options.now ?? Date.now()
  const config = checkConfig(paths)
  const database = checkDatabase(paths, options)
  const findings: Finding[] = [database.finding, ledgerFinding(paths, database.state, options), checkLocks(paths, now), checkTempFiles(paths, now), checkSkills(paths, config.extraDirs), config.finding]
  return { home: paths.root, healthy: findings.every((finding) => finding.status !== 'problem'), findings, logs: logsOf(paths) }
}

/** Where to look when something went wrong: each log and whether anything was written to it yet. */
function logsOf(paths: ReturnType<typeof homePaths>): DoctorReport['logs'] {
  const entry = (path: string) => ({ path, exists: existsSync(path) })
  return { main: entry(paths.mainLog), review: entry(paths.reviewLog), mcp: entry(join(paths.logsDir, 'mcp')) }
}

function ledgerFinding(paths: ReturnType<typeof homePaths>, state: string, options: DoctorOptions): Finding {
  if (state === 'missing') return { check: 'ledger', status: 'ok', summary: 'no ledger yet', details: [], advice: null, repairable: false }
  if (state !== 'healthy') {
    return { check: 'ledger', status: 'note', summary: 'not checked: the ledger is in state.db, which needs repairing first', details: [], advice: null, repairable: false }
  }
  const db = new Database(paths.stateDb, { readonly: true, fileMustExist: true, nativeBinding: options.nativeBinding })
  try {
    return checkLedger(db, paths)
  } finally {
    db.close()
  }
}

/**
 * Fixes what {@link runDoctor} can fix: salvages a damaged state.db into a fresh one (the damaged file
 * is moved aside, never deleted) or rebuilds broken search indexes, removes stale locks and orphan
 * temp files, and settles ledger rows a killed write left pending. Skills and config.json are the
 * user's files and are only reported. Returns what was done, in order.
 */
export async function repairHome(home: string, options: DoctorOptions = {}): Promise<RepairAction[]> {
  const paths = homePaths(home)
  const now = options.now ?? Date.now()
  const actions: RepairAction[] = []
  const push = (action: RepairAction | null) => action && actions.push(action)
  try {
    push(repairDatabase(paths, checkDatabase(paths, options), { nativeBinding: options.nativeBinding, now: new Date(now) }))
  } catch (error) {
    push({ check: 'database', ok: false, summary: `could not repair state.db: ${(error as Error).message}`, details: [] })
  }
  push(removeStaleLocks(paths, now))
  push(removeHomeTempFiles(paths, now))
  push(await settleLedger(home, options))
  return actions
}

/**
 * Settles ledger rows a killed write left pending (see reconcileLedger): opening the core reconciles
 * once; whatever a running writer still held then is tried again here.
 */
async function settleLedger(home: string, options: DoctorOptions): Promise<RepairAction | null> {
  // No database, no ledger: and opening the core would create a data home that was never there.
  if (!existsSync(homePaths(home).stateDb)) return null
  let core: CairnCore
  try {
    core = await CairnCore.open({ home, nativeBinding: options.nativeBinding })
  } catch (error) {
    return { check: 'ledger', ok: false, summary: `could not open the data home to settle the ledger: ${(error as Error).message}`, details: [] }
  }
  try {
    const atOpen = core.startupReconcile
    if (atOpen && 'error' in atOpen) return { check: 'ledger', ok: false, summary: `could not settle the ledger: ${atOpen.error}`, details: [] }
    const again = await reconcileLedger(core)
    const committed = (atOpen?.committed.length ?? 0) + again.committed.length
    const dropped = (atOpen?.dropped.length ?? 0) + again.dropped.length
    const conflicts = (atOpen?.conflicts.length ?? 0) + again.conflicts.length
    const settled = committed + dropped + conflicts
    if (settled === 0 && again.skipped.length === 0) return null
    return {
      check: 'ledger',
      ok: again.skipped.length === 0,
      summary: `settled ${plural(settled, 'unsettled ledger row')}`,
      details: [
        `${committed} committed (the change is in the file)`,
        `${dropped} dropped (the change never reached the file)`,
        `${conflicts} marked as conflicts (the file holds neither side; "cairn doctor" lists them)`,
        ...again.skipped.map((skip) => `#${skip.entry.id} left pending: ${skip.reason}`)
      ]
    }
  } finally {
    await core.close()
  }
}

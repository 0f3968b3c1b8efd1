import { existsSync, renameSync, rmSync } from 'node:fs'
import Database from 'better-sqlite3'
import type { HomePaths } from '../config/home'
import { CorruptDatabaseError, inspectDatabaseFile, probeBtrees } from '../db/corrupt'
import { checkSearchIndexes, rebuildSearchIndexes, salvageInto, type SalvageReport } from '../db/salvage'
import { openStateDb, type StateDb } from '../db/state-db'
import { capDetails, plural, type Finding, type RepairAction } from './types'

export type DatabaseState = 'missing' | 'healthy' | 'damaged' | 'empty'

export interface DatabaseCheck {
  state: DatabaseState
  finding: Finding
  /** Problems of the search indexes alone (the tables are fine): a rebuild fixes them. */
  searchIndexProblems: string[]
}

const REPAIR_ADVICE =
  'Quit the Cairn app and any "cairn serve", then run "cairn doctor --repair": it moves state.db aside as state.db.corrupt-<time> ' +
  '(nothing is deleted) and saves what SQLite can still read into a fresh one.'

const EMPTY_ADVICE =
  'An empty file holds nothing to save. If you have a backup of state.db, put it back now; otherwise quit the Cairn app and any ' +
  '"cairn serve" and run "cairn doctor --repair": it moves the empty file aside as state.db.empty-<time> and starts a fresh database.'

/**
 * Checks state.db without changing it: the file check Cairn does at every open, then SQLite's full
 * `PRAGMA integrity_check` (every page; about half a second per 100 MB), then, when the tables are
 * sound, the two search indexes (FTS5 'integrity-check', which needs a writable connection).
 */
export function checkDatabase(paths: HomePaths, options: { nativeBinding?: string } = {}): DatabaseCheck {
  const path = paths.stateDb
  const result = (state: DatabaseState, finding: Omit<Finding, 'check'>, searchIndexProblems: string[] = []): DatabaseCheck => ({
    state,
    finding: { check: 'database', ...finding },
    searchIndexProblems
  })
  if (!existsSync(path)) {
    return result('missing', { status: 'ok', summary: 'does not exist yet; Cairn creates it on first use', details: [], advice: null, repairable: false })
  }
  const damaged = (detail: string, details: string[] = [], state: DatabaseState = 'damaged') =>
    result(state, { status: 'problem', summary: `damaged: ${detail}`, details: capDetails(details), advice: state === 'empty' ? EMPTY_ADVICE : REPAIR_ADVICE, repairable: true })

  const fileProblem = inspectDatabaseFile(path)
  if (fileProblem) return damaged(fileProblem.detail, [], fileProblem.code === 'EMPTY' ? 'empty' : 'damaged')
  let findings: string[]
  try {
    const db = new Database(path, { readonly: true, fileMustExist: true, nativeBinding: options.nativeBinding })
    try {
      probeBtrees(db)
      findings = (db.pragma('integrity_check(100)') as Array<{ integrity_check: string }>).map((row) => row.integrity_check)
    } finally {
      db.close()
    }
  } catch (error) {
    return damaged(`SQLite says: ${(error as Error).message}`)
  }
  if (!(findings.length === 1 && findings[0] === 'ok')) return damaged(`integrity_check found ${findings.length === 100 ? '100 or more' : findings.length} problems`, findings)

  let indexProblems: string[]
  try {
    const db = openStateDb(path, { nativeBinding: options.nativeBinding })
    try {
      indexProblems = checkSearchIndexes(db)
    } finally {
      db.close()
    }
  } catch (error) {
    if (error instanceof CorruptDatabaseError) return damaged(error.detail)
    return result('healthy', {
      status: 'note',
      summary: `passed integrity_check, but the search indexes could not be checked: ${(error as Error).message}`,
      details: [],
      advice: 'Run "cairn doctor" again when no other Cairn process is writing.',
      repairable: false
    })
  }
  if (indexProblems.length) {
    return result(
      'healthy',
      {
        status: 'problem',
        summary: 'the tables are sound, but the search index does not match the messages',
        details: capDetails(indexProblems),
        advice: 'Run "cairn doctor --repair" to rebuild the search indexes from the messages (nothing else changes).',
        repairable: true
      },
      indexProblems
    )
  }
  return result('healthy', { status: 'ok', summary: 'passed integrity_check; the search indexes agree with the messages', details: [], advice: null, repairable: false })
}

/** A time for file names: `2026-01-31T14-05-09Z` (sortable, no colons for Windows). */
export function fileStamp(at = new Date()): string {
  return at.toISOString().replace(/\.\d{3}Z$/, 'Z').replace(/:/g, '-')
}

/**
 * Repairs state.db as {@link checkDatabase} found it: a damaged or empty file is salvaged into a
 * fresh database built next to it, then moved aside (with its -wal and -shm, named so SQLite still
 * pairs them) as `state.db.corrupt-<time>` (`state.db.empty-<time>` for a 0-byte file) and the fresh
 * one takes its place. Only sound tables with broken search indexes get the indexes rebuilt.
 */
export function repairDatabase(paths: HomePaths, check: DatabaseCheck, options: { nativeBinding?: string; now?: Date } = {}): RepairAction | null {
  if (check.state === 'healthy' && check.searchIndexProblems.length) {
    const db = openStateDb(paths.stateDb, { nativeBinding: options.nativeBinding })
    try {
      rebuildSearchIndexes(db)
    } finally {
      db.close()
    }
    return { check: 'database', ok: true, summary: 'rebuilt the search indexes of state.db from its messages', details: [] }
  }
  if (check.state !== 'damaged' && check.state !== 'empty') return null

  const stamp = fileStamp(options.now)
  const aside = `${paths.stateDb}.${check.state === 'empty' ? 'empty' : 'corrupt'}-${stamp}`
  const building = `${paths.stateDb}.salvage-${stamp}`
  let report: SalvageReport
  const fresh: StateDb = openStateDb(building, { nativeBinding: options.nativeBinding })
  try {
    report = salvageInto(paths.stateDb, fresh, { nativeBinding: options.nativeBinding })
    rebuildSearchIndexes(fresh)
    fresh.close()
  } catch (error) {
    if (fresh.open) fresh.close()
    for (const suffix of ['', '-wal', '-shm']) rmSync(`${building}${suffix}`, { force: true })
    throw error
  }
  for (const suffix of ['', '-wal', '-shm']) {
    if (existsSync(`${paths.stateDb}${suffix}`)) renameSync(`${paths.stateDb}${suffix}`, `${aside}${suffix}`)
  }
  renameSync(building, paths.stateDb)

  const saved = report.tables.reduce((sum, table) => sum + table.saved, 0)
  const tableLines = report.tables
    .filter((table) => table.saved || table.refused || table.unreadable)
    .map((table) => {
      const extra = [
        table.fromPages ? `${table.fromPages} of them read from raw pages` : null,
        table.refused ? `${table.refused} refused` : null,
        table.unreadable ? `${plural(table.unreadable, 'unreadable stretch', 'unreadable stretches')} skipped` : null
      ].filter(Boolean)
      return `${table.table}: ${plural(table.saved, 'row')} saved${extra.length ? ` (${extra.join(', ')})` : ''}`
    })
  const details = [`moved the damaged file aside as ${aside}`]
  if (check.state === 'empty') details.push('it held nothing to save')
  else if (saved === 0) details.push(`nothing in it could be read as Cairn's data${report.sqliteError ? ` (SQLite: ${report.sqliteError})` : ''}`)
  else {
    details.push(...tableLines)
    if (report.sqliteError) details.push(`SQLite could not open it (${report.sqliteError}), so these rows were read from its raw pages`)
    details.push('rebuilt the search indexes')
  }
  return {
    check: 'database',
    ok: true,
    summary: check.state === 'empty' ? 'replaced the empty state.db with a fresh database' : `salvaged ${plural(saved, 'row')} into a fresh state.db`,
    details
  }
}

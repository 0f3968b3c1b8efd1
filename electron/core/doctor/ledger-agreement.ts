import { join, posix } from 'node:path'
import type { StateDb } from '../db/state-db'
import type { HomePaths } from '../config/home'
import { Ledger, type UnsettledEntry } from '../ledger/ledger'
import { parseEntries, readMemoryText } from '../memory/memory-file'
import { readSkillFile } from '../skills/skill-dir-files'
import { capDetails, plural, type Finding } from './types'

interface Row {
  id: number
  kind: string
  target: string
  before: string | null
  after: string | null
}

export interface Disagreement {
  /** The ledger row that says what the file should hold. */
  id: number
  target: string
  problem: string
}

export interface LedgerAgreement {
  rows: number
  disagreements: Disagreement[]
  /** Memory entries no ledger row accounts for, per file (written by hand, or by a write whose row was lost). */
  untracked: Array<{ target: string; count: number }>
  /** Rows a killed write left unsettled (a ledger with row states): pending, and conflicts reconciliation found. */
  unsettled: Array<{ id: number; kind: string; target: string; state: 'pending' | 'conflict' }>
}

/**
 * Replays the ledger over the files it describes and checks the result against the disk: for each
 * memory file, the entries the committed rows leave must all be in the file; for each skill file,
 * the latest committed row's `after` must be what the file holds (null: the file is gone). A revert
 * is itself a row, so replaying every row in order leaves exactly what should be there now. Only
 * committed rows are replayed; rows not on the timeline (pending, conflict) come from the Ledger's
 * `unsettled()` and are reported as such, and what they changed in a file is not reported twice.
 */
export function compareLedgerWithFiles(db: StateDb, paths: HomePaths): LedgerAgreement {
  const columns = new Set((db.pragma('table_info(ledger)') as Array<{ name: string }>).map((c) => c.name))
  // A ledger from before row states (a home an older Cairn last opened, read without migrating) holds committed rows only.
  const hasState = columns.has('state')
  const rows = db.prepare(`SELECT id, kind, target, before, after FROM ledger ${hasState ? "WHERE state = 'committed'" : ''} ORDER BY id`).all() as Row[]
  const unsettled: UnsettledEntry[] = hasState ? new Ledger(db).unsettled() : []

  const memory = new Map<string, Map<string, number>>()
  const skills = new Map<string, { id: number; after: string | null }>()
  for (const row of rows) {
    if (!safeTarget(row.target)) continue
    if (row.kind.startsWith('memory.')) {
      const live = memory.get(row.target) ?? new Map<string, number>()
      memory.set(row.target, live)
      if (row.kind !== 'memory.add' && row.before !== null) live.delete(row.before)
      if (row.kind !== 'memory.remove' && row.after !== null) live.set(row.after, row.id)
    } else if (row.kind.startsWith('skill.')) {
      if (row.kind === 'skill.delete') {
        // The whole folder went to the archive: what its other files hold is no longer the ledger's to say.
        const folder = `${posix.dirname(row.target)}/`
        for (const target of [...skills.keys()]) if (target.startsWith(folder)) skills.delete(target)
      }
      skills.set(row.target, { id: row.id, after: row.after })
    }
  }

  // A file that moved on from the timeline through an unsettled row (a change whose write was killed, or a
  // conflict) is that row's story: it is reported once, as unsettled, and settling it decides.
  const explained = (target: string, afterId: number, text: string | null): boolean =>
    unsettled.some(
      (row) => row.id > afterId && ((row.target === target && row.before === text) || (row.kind === 'skill.delete' && target.startsWith(`${posix.dirname(row.target)}/`)))
    )
  const disagreements: Disagreement[] = []
  const untracked: LedgerAgreement['untracked'] = []
  for (const [target, live] of memory) {
    let entries: string[]
    try {
      entries = parseEntries(readMemoryText(join(paths.root, ...target.split('/'))))
    } catch (error) {
      disagreements.push({ id: Math.max(0, ...live.values()), target, problem: `cannot be read: ${(error as Error).message}` })
      continue
    }
    const present = new Set(entries)
    for (const [text, id] of live) {
      if (!present.has(text) && !explained(target, id, text)) disagreements.push({ id, target, problem: `does not hold the entry this row wrote: "${preview(text)}"` })
    }
    // An unsettled row's text is accounted for: reconciliation decides about it.
    const claimed = new Set(unsettled.filter((row) => row.target === target).map((row) => row.after))
    const extra = entries.filter((entry) => !live.has(entry) && !claimed.has(entry)).length
    if (extra > 0) untracked.push({ target, count: extra })
  }
  for (const [target, expected] of skills) {
    const actual = currentText(join(paths.root, ...target.split('/')))
    if (actual === expected.after || explained(target, expected.id, expected.after)) continue
    disagreements.push({
      id: expected.id,
      target,
      problem: expected.after === null ? 'still exists, though this row removed it' : actual === null ? 'is missing, though this row wrote it' : 'holds other text than this row wrote'
    })
  }
  disagreements.sort((a, b) => a.id - b.id)
  return { rows: rows.length, disagreements, untracked, unsettled: unsettled.map(({ id, kind, target, state }) => ({ id, kind, target, state })) }
}

export function checkLedger(db: StateDb, paths: HomePaths): Finding {
  const result = compareLedgerWithFiles(db, paths)
  const pending = result.unsettled.filter((row) => row.state === 'pending').length
  const conflicts = result.unsettled.length - pending
  const details = [
    ...result.disagreements.map((d) => `#${d.id} ${d.target} ${d.problem}`),
    ...result.unsettled.map((row) =>
      row.state === 'pending' ? `#${row.id} ${row.kind} on ${row.target} was never confirmed` : `#${row.id} ${row.kind} on ${row.target}: the file holds neither its before nor its after text`
    )
  ]
  const problems: string[] = []
  if (result.disagreements.length) problems.push(`${plural(result.disagreements.length, 'change')} on the timeline the files do not hold`)
  if (pending) problems.push(`${plural(pending, 'change')} a killed write left unsettled`)
  if (conflicts) problems.push(`${plural(conflicts, 'interrupted change')} the files agree with neither way`)
  const notes = result.untracked.map((u) => `${u.target}: ${plural(u.count, 'entry', 'entries')} no ledger row accounts for (written by hand, or by a write whose row was lost)`)
  if (problems.length === 0) {
    return {
      check: 'ledger',
      status: notes.length ? 'note' : 'ok',
      summary: result.rows === 0 ? 'no learned changes yet' : `the files hold what all ${plural(result.rows, 'ledger row')} say`,
      details: capDetails(notes),
      advice: notes.length ? 'Nothing to do; such entries are simply not on the timeline, so they cannot be reverted from it.' : null,
      repairable: false
    }
  }
  return {
    check: 'ledger',
    status: 'problem',
    summary: problems.join('; '),
    details: capDetails([...details, ...notes]),
    advice:
      (pending ? 'Run "cairn doctor --repair" to settle the unsettled changes against the files. ' : '') +
      'A file edited by hand after a change also shows here: look at the file, keep what is right, and use the timeline to revert what is not.',
    repairable: pending > 0
  }
}

function currentText(path: string): string | null {
  const read = readSkillFile(path)
  if (read.kind === 'text') return read.text
  if (read.kind === 'binary') return read.buffer.toString('base64')
  return null
}

function safeTarget(target: string): boolean {
  return target.length > 0 && !target.split('/').some((part) => part === '' || part === '..' || part === '.')
}

function preview(text: string): string {
  const line = text.replace(/\s+/g, ' ').trim()
  return line.length > 60 ? `${line.slice(0, 59)}…` : line
}

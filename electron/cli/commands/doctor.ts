import { repairHome, runDoctor, type DoctorReport, type Finding, type RepairAction } from '../../core/doctor'
import { parseCommandArgs } from '../args'
import { printJson, type CliIO } from '../io'
import type { CliCommand } from './types'

const LABELS: Record<Finding['check'], string> = {
  database: 'state.db',
  ledger: 'ledger',
  locks: 'locks',
  'temp-files': 'temp files',
  skills: 'skills',
  config: 'config'
}

const MARKS: Record<Finding['status'], string> = { ok: 'ok', problem: 'PROBLEM', note: 'note' }

export const doctorCommand: CliCommand = {
  usage: `Usage: cairn [--home DIR] doctor [--repair] [--json]

Checks the data home and says what to do about each problem: the integrity of state.db (SQLite's
integrity_check and the search indexes), the ledger against the memory and skill files, stale locks,
temp files left by killed writes, skills that do not load, and config.json. Changes nothing.

--repair fixes what can be fixed: a damaged state.db is moved aside as state.db.corrupt-<time> (never
deleted) and what SQLite can still read is saved into a fresh one, search indexes are rebuilt, stale
locks and orphan temp files are removed, and ledger rows a killed write left pending are settled.
Quit the Cairn app and any "cairn serve" first. It prints what it did and what it saved.

Exit 0 when the home is healthy (after --repair: when it is healthy now), 1 when problems remain.
`,
  async run(ctx, args) {
    const { values } = parseCommandArgs(args, { repair: { type: 'boolean' }, json: { type: 'boolean' } })
    if (!values.repair) {
      const report = runDoctor(ctx.home)
      if (values.json) printJson(ctx.io, report)
      else printReport(ctx.io, report)
      return report.healthy ? 0 : 1
    }
    const before = runDoctor(ctx.home)
    const actions = await repairHome(ctx.home)
    const after = runDoctor(ctx.home)
    if (values.json) {
      printJson(ctx.io, { before, repairs: actions, after })
    } else {
      printRepairs(ctx.io, ctx.home, actions)
      ctx.io.out('\nNow:\n')
      printReport(ctx.io, after)
    }
    return after.healthy ? 0 : 1
  }
}

function printReport(io: CliIO, report: DoctorReport): void {
  io.out(`Cairn doctor: ${report.home}\n\n`)
  for (const finding of report.findings) {
    io.out(`  ${MARKS[finding.status].padEnd(8)} ${LABELS[finding.check].padEnd(11)} ${finding.summary}\n`)
    for (const line of finding.details) io.out(`${' '.repeat(23)}${line}\n`)
    if (finding.advice && finding.status !== 'ok') io.out(`${' '.repeat(21)}→ ${finding.advice}\n`)
  }
  io.out('\nLogs (what the app, the background reviews and MCP servers wrote, when something went wrong):\n')
  for (const [label, log] of [['the app', report.logs.main], ['reviews', report.logs.review], ['MCP servers', report.logs.mcp]] as const) {
    io.out(`  ${label.padEnd(12)} ${log.path}${log.exists ? '' : ' (nothing written yet)'}\n`)
  }
  const problems = report.findings.filter((finding) => finding.status === 'problem')
  if (problems.length === 0) {
    io.out('\nNo problems found.\n')
    return
  }
  const repairable = problems.filter((finding) => finding.repairable).length
  io.out(
    `\n${problems.length} problem${problems.length === 1 ? '' : 's'} found.` +
      (repairable ? ` "cairn doctor --repair" fixes ${repairable === problems.length ? (problems.length === 1 ? 'it' : 'them all') : `${repairable} of them`}.` : '') +
      '\n'
  )
}

function printRepairs(io: CliIO, home: string, actions: RepairAction[]): void {
  io.out(`Repairing ${home}\n\n`)
  if (actions.length === 0) io.out('  Nothing needed repairing.\n')
  for (const action of actions) {
    io.out(`  ${(action.ok ? 'done' : 'FAILED').padEnd(8)} ${LABELS[action.check].padEnd(11)} ${action.summary}\n`)
    for (const line of action.details) io.out(`${' '.repeat(23)}${line}\n`)
  }
}

import { createInterface } from 'node:readline/promises'
import { BackupError, restoreBackup, type ReplacePlan } from '../../core/backup'
import { resolveHome } from '../../core/config/home'
import { parseCommandArgs } from '../args'
import { CliFailure, printJson, UsageError, type CliIO } from '../io'
import type { CliCommand } from './types'

export const restoreCommand: CliCommand = {
  usage: `Usage: cairn [--home DIR] restore FILE [--home DIR] [--yes] [--json]

Restores a backup made by "cairn backup". The whole archive is checked first: every file against the
checksum in its manifest (a changed or cut-short archive is refused, naming the file), no path that
leads outside the data home, no links or device files, and a database schema this Cairn can open (an
archive from a newer Cairn is refused: upgrade Cairn first; one from an older Cairn is upgraded).

An empty or new data home is restored at once. A home that already holds data is replaced only after
you confirm (or with --yes); the current one is kept as <home>.before-restore-<time>, never deleted,
and its backups/ folder moves into the restored home. Quit the Cairn app, "cairn serve" and any chat
first: a home another Cairn process is using is never replaced.

--home DIR   the data home to restore into (default: the global --home, $CAIRN_HOME, ~/.cairn)
--yes        replace a home that holds data without asking
--json       print the outcome as JSON
`,
  async run(ctx, args) {
    const { values, positionals } = parseCommandArgs(args, { home: { type: 'string' }, yes: { type: 'boolean' }, json: { type: 'boolean' } })
    if (positionals.length !== 1) throw new UsageError(positionals.length ? 'restore takes one backup file.' : 'Missing the backup file to restore.')
    const home = values.home ? resolveHome(values.home, ctx.env) : ctx.home
    let result
    try {
      result = await restoreBackup({ archive: positionals[0], home, confirmReplace: (plan) => confirm(ctx.io, plan, values.yes === true) })
    } catch (error) {
      if (error instanceof BackupError) throw new CliFailure(error.message)
      throw error
    }
    if (values.json) {
      printJson(ctx.io, result)
      return result.restored ? 0 : 1
    }
    if (!result.restored) {
      ctx.io.err('cairn: restore cancelled; nothing was changed.\n')
      return 1
    }
    const { manifest } = result
    ctx.io.out(`Restored ${result.home}\n  from the backup of ${manifest.createdAt} on ${manifest.host} (Cairn ${manifest.cairnVersion}, ${manifest.files.length} files, every checksum verified)\n`)
    if (result.schemaVersion !== null && result.schemaVersion !== manifest.schemaVersion) {
      ctx.io.out(`  database upgraded from schema ${manifest.schemaVersion} to ${result.schemaVersion}\n`)
    }
    if (result.aside) ctx.io.out(`  the previous data home is kept at ${result.aside}\n`)
    return 0
  }
}

async function confirm(io: CliIO, plan: ReplacePlan, yes: boolean): Promise<boolean> {
  if (yes) return true
  if (!process.stdin.isTTY) {
    throw new CliFailure(`${plan.home} already holds data. Re-run with --yes to replace it with the backup (the current home is kept at ${plan.aside}).`)
  }
  io.err(`${plan.home} already holds data. Replace it with the backup of ${plan.manifest.createdAt} from ${plan.manifest.host}?\nThe current home is kept at ${plan.aside}.\n`)
  const rl = createInterface({ input: process.stdin, output: process.stderr })
  try {
    const answer = (await rl.question('Replace it? [y/N] ')).trim().toLowerCase()
    return answer === 'y' || answer === 'yes'
  } finally {
    rl.close()
  }
}

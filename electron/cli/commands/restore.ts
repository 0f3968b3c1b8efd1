import { createInterface } from 'node:readline/promises'
import { join } from 'node:path'
import { visibleControls } from '../../../shared/visible-text'
import { BackupError, HELD_SETTINGS_FILE, restoreBackup, type HeldSetting, type ReplacePlan } from '../../core/backup'
import { resolveHome } from '../../core/config/home'
import { parseCommandArgs } from '../args'
import { CliFailure, printJson, UsageError, type CliIO } from '../io'
import { keyedFailure } from '../worded-failure'
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
The backup's settings that grant power (MCP servers, saved command prefixes, read folders and fetch
hosts, provider and embedding URLs, team libraries and extra skill folders, the sync remote) are shown
and come in only when you agree (or with --yes); otherwise they are kept out of config.json, in
<home>/restore-held-settings.json.

--yes        replace a home that holds data, and bring in its settings, without asking
--json       print the outcome as JSON
`,
  async run(ctx, args) {
    const { values, positionals } = parseCommandArgs(args, { home: { type: 'string' }, yes: { type: 'boolean' }, json: { type: 'boolean' } })
    if (positionals.length !== 1) throw new UsageError(positionals.length ? 'restore takes one backup file.' : 'Missing the backup file to restore.')
    const home = values.home ? resolveHome(values.home, ctx.env) : ctx.home
    let result
    try {
      result = await restoreBackup({
        archive: positionals[0],
        home,
        confirmReplace: (plan) => confirm(ctx.io, plan, values.yes === true),
        confirmSettings: (held) => confirmSettings(ctx.io, held, values.yes === true)
      })
    } catch (error) {
      if (error instanceof BackupError) throw keyedFailure(error)
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
    if (result.settings.held.length && !result.settings.accepted) {
      ctx.io.out(`  ${result.settings.held.length} setting(s) that grant power were held back, out of config.json: they are in ${join(result.home, HELD_SETTINGS_FILE)}; add what you trust to config.json, or restore again with --yes\n`)
    }
    return 0
  }
}

/** One held setting, on one line, with every character that could hide something written out. */
function describeHeld(setting: HeldSetting): string {
  const server = /^mcpServers\.(.+)$/.exec(setting.key)
  const value = setting.value as { command?: unknown; args?: unknown; url?: unknown }
  if (server) {
    const what = typeof value?.url === 'string' ? `connects to ${value.url}` : `runs ${[value?.command, ...(Array.isArray(value?.args) ? value.args : [])].map(String).join(' ')}`
    return visibleControls(`MCP server ${server[1]}: ${what}`, { newlines: false })
  }
  return visibleControls(`${setting.key}: ${JSON.stringify(setting.value)}`, { newlines: false })
}

/** Shows what grants power in the backup's settings and asks whether to bring it in (--yes: yes, after showing it). */
async function confirmSettings(io: CliIO, held: readonly HeldSetting[], yes: boolean): Promise<boolean> {
  io.err(`The backup's settings grant these powers; they come in only if you say so:\n${held.map((setting) => `  ${describeHeld(setting)}\n`).join('')}`)
  if (yes) return true
  if (!process.stdin.isTTY) return false
  const rl = createInterface({ input: process.stdin, output: process.stderr })
  try {
    const answer = (await rl.question('Bring these settings in? [y/N] ')).trim().toLowerCase()
    return answer === 'y' || answer === 'yes'
  } finally {
    rl.close()
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

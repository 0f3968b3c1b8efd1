import type { CairnCore } from '../../core/cairn'
import { leaveSync, proposeToLibrary, readSyncState, runSync, setupSync, SyncError, type LibraryProposal, type SyncProgress, type SyncReport, type SharedLibraryReport } from '../../core/sync'
import { parseCommandArgs } from '../args'
import { formatTime, printJson, UsageError, type CliIO } from '../io'
import { keyedFailure } from '../worded-failure'
import type { CliCommand, CliContext } from './types'

export const syncCommand: CliCommand = {
  usage: `Usage: cairn [--home DIR] sync [--json]
       cairn [--home DIR] sync setup <remote-url> [--branch NAME] [--device NAME] [--username NAME] [--json]
       cairn [--home DIR] sync status [--json]
       cairn [--home DIR] sync leave
       cairn [--home DIR] sync propose <skill> [--library NAME] [--json]

Keeps memories/ and skills/ the same on every device over a git repository you own (GitHub, GitLab,
Gitea, a server of your own): state.db, conversations, secrets and attachments stay on each device.
Git runs inside Cairn (isomorphic-git), so no git program is needed. Remotes are HTTPS; the token
comes from CAIRN_SYNC_TOKEN (the app keeps it in the system keychain).

sync            commit what changed here, bring in what the other devices changed, send the result.
                Memory files merge by entry (both sides' new entries kept; an entry changed on one
                side and removed on the other waits in the Inbox; what no longer fits the limit is
                proposed, never cut); a skill changed on both sides merges line by line, or, where
                the changes overlap, keeps this device's version and puts the other in the Inbox.
                Every change that comes in is on the timeline (source sync, with the device's name)
                and can be reverted.
setup URL       turn this home into a copy of the repository at URL and sync once (an empty
                repository gets this device's files; a device joining keeps what it has and merges)
  --branch NAME   the branch to sync (default main)
  --device NAME   how this device is named on the others (default the host name)
  --username NAME the user name sent with the token, for hosts that want the account name
status          the remote, this device's name and the last sync or problem
leave           stop syncing: the git copy is removed, memories and skills stay as they are
propose SKILL   offer one of this device's skills to a team library you maintain (listed in
                skills.shared with "writable": true): it is pushed as a new branch
                cairn/<device>/<skill>-<time> for the library's maintainers to review and merge;
                the library's own branch is never pushed to
  --library NAME  which library (needed when you maintain more than one)

Team libraries (skills.shared in config.json, e.g. [{"url": "https://…/team-skills.git"}]) are
pulled by every sync into <home>/shared-skills/<name>, read-only; a library's own token comes from
CAIRN_SECRET_SYNC_SHARED_<NAME>_TOKEN, else CAIRN_SYNC_TOKEN.
--json          print the result as JSON
`,
  async run(ctx, args) {
    const { values, positionals } = parseCommandArgs(args, {
      json: { type: 'boolean' },
      branch: { type: 'string' },
      device: { type: 'string' },
      username: { type: 'string' },
      library: { type: 'string' }
    })
    const [action, ...rest] = positionals
    const json = values.json ?? false
    const core = await ctx.core()
    if (action === 'status') {
      const state = readSyncState(ctx.home, core.config.get())
      if (json) printJson(ctx.io, state)
      else printStatus(ctx.io, state)
      return 0
    }
    if (action === 'leave') {
      await leaveSync(core)
      ctx.io.out('This device no longer syncs. Its memories and skills stay as they are.\n')
      return 0
    }
    if (action === 'propose') return propose(ctx, core, rest, values.library, json)
    if (action !== undefined && action !== 'setup') throw new UsageError(`Unknown sync action "${action}"; use setup, status, leave or propose, or nothing to sync now.`)
    if (action === 'setup' && rest.length !== 1) throw new UsageError('Give the repository to sync with, e.g. cairn sync setup https://github.com/you/cairn-sync.git.')
    if (action === undefined && rest.length) throw new UsageError(`sync takes no arguments (got "${rest[0]}").`)
    const options = { token: syncToken(ctx), sharedToken: (library: string) => secretFromEnv(ctx, `sync.shared.${library}.token`), onProgress: progressPrinter(ctx.io) }
    let report: SyncReport
    try {
      report =
        action === 'setup'
          ? await setupSync(core, { remote: rest[0], branch: values.branch, username: values.username, deviceName: values.device }, options)
          : await runSync(core, options)
    } catch (error) {
      if (error instanceof SyncError) throw keyedFailure(error)
      throw error
    }
    if (json) printJson(ctx.io, report)
    else printReport(ctx.io, report, Boolean(core.config.get().sync.remote))
    // A team library that could not be pulled is a failure, even when the personal sync went well.
    return report.shared.some((library) => library.outcome === 'failed') ? 1 : 0
  }
}

/** `CAIRN_SYNC_TOKEN`, or the name the app's secret would have in the environment. */
function syncToken(ctx: CliContext): string | null {
  return ctx.env.CAIRN_SYNC_TOKEN || secretFromEnv(ctx, 'sync.token')
}

/** A secret as browser mode reads it: `sync.shared.team.token` → `CAIRN_SECRET_SYNC_SHARED_TEAM_TOKEN`. */
function secretFromEnv(ctx: CliContext, name: string): string | null {
  return ctx.env[`CAIRN_SECRET_${name.toUpperCase().replace(/[^A-Z0-9]/g, '_')}`] || null
}

async function propose(ctx: CliContext, core: CairnCore, rest: string[], library: string | undefined, json: boolean): Promise<number> {
  if (rest.length !== 1) throw new UsageError('Name the skill to propose, e.g. cairn sync propose cut-release --library team-skills.')
  let proposal: LibraryProposal
  try {
    proposal = await proposeToLibrary(core, { skill: rest[0], library, token: syncToken(ctx), libraryToken: (name) => secretFromEnv(ctx, `sync.shared.${name}.token`) })
  } catch (error) {
    if (error instanceof SyncError) throw keyedFailure(error)
    throw error
  }
  if (json) printJson(ctx.io, proposal)
  else ctx.io.out(`Proposed ${rest[0]} to ${proposal.library} as branch ${proposal.branch} (${proposal.files.length} files in ${proposal.folder}/). Its maintainers can review and merge it.\n`)
  return 0
}

function progressPrinter(io: CliIO): (progress: SyncProgress) => void {
  let last = ''
  return (progress) => {
    if (!io.isTTY || progress.phase === last) return
    last = progress.phase
    io.err(`${progress.phase}…\n`)
  }
}

const OUTCOME_WORDS: Record<SyncReport['outcome'], string> = {
  up_to_date: 'Already in sync: nothing changed here or on the other devices.',
  pushed: 'Sent this device\'s changes.',
  pulled: 'Brought in the other devices\' changes.',
  merged: 'Merged this device\'s changes with the other devices\' and sent the result.'
}

const LIBRARY_WORDS: Record<SharedLibraryReport['outcome'], string> = {
  cloned: 'pulled for the first time',
  updated: 'updated',
  up_to_date: 'up to date',
  failed: 'FAILED'
}

function printReport(io: CliIO, report: SyncReport, personal: boolean): void {
  // With no sync remote, only the team libraries were pulled: "Already in sync" would say nothing true.
  const lines = personal ? [OUTCOME_WORDS[report.outcome]] : []
  if (report.sent) lines.push(`  sent: ${plural(report.sent, 'changed file')}`)
  if (report.received) lines.push(`  came in: ${plural(report.received, 'change')}${report.devices.length ? ` from ${report.devices.join(', ')}` : ''} (on the timeline; cairn timeline)`)
  for (const conflict of report.conflicts) {
    const inbox = conflict.proposalId ? ` (#${conflict.proposalId})` : ''
    lines.push(
      conflict.resolution === 'held_back'
        ? `  held back ${conflict.file}: the other version adds something that could hurt if followed; it waits in the Inbox${inbox}`
        : conflict.resolution === 'proposal'
          ? `  conflict in ${conflict.file}: this device's version kept, the other waits in the Inbox${inbox}`
          : `  conflict in ${conflict.file}: changed here and removed or changed as a binary there; this device's version kept (the other is in the sync history)`
    )
  }
  if (report.overflow) lines.push(`  ${plural(report.overflow, 'memory entry', 'memory entries')} did not fit after the merge: waiting in the Inbox (cairn inbox)`)
  for (const problem of report.problems) lines.push(`  not brought in: ${problem.file}: ${problem.message}`)
  for (const library of report.shared) {
    const skills = library.skills.length ? ` (${plural(library.skills.length, 'skill')} changed)` : ''
    lines.push(`Team library ${library.name}: ${LIBRARY_WORDS[library.outcome]}${skills}${library.error ? `: ${library.error.message}` : ''}`)
  }
  io.out(`${lines.join('\n')}\n`)
}

function printStatus(io: CliIO, state: ReturnType<typeof readSyncState>): void {
  if (!state.remote) {
    io.out('Sync is not set up. Run cairn sync setup <remote-url>.\n')
    return
  }
  const lines = [`Syncing with ${state.remote} (branch ${state.branch}) as "${state.deviceName}".`]
  if (state.lastSync) lines.push(`Last sync: ${formatTime(state.lastSync.at)}, ${OUTCOME_WORDS[state.lastSync.outcome].toLowerCase()}`)
  else lines.push('Not synced yet.')
  if (state.lastError && (!state.lastSync || state.lastError.at > state.lastSync.at)) lines.push(`Last problem (${formatTime(state.lastError.at)}): ${state.lastError.message}`)
  io.out(`${lines.join('\n')}\n`)
}

function plural(count: number, one: string, many = `${one}s`): string {
  return `${count} ${count === 1 ? one : many}`
}

import {
  defaultClaudeCodeHome,
  defaultHermesHome,
  defaultOpenClawWorkspace,
  importChatExport,
  importClaudeCode,
  importHermes,
  importOpenClaw,
  ImportBatches,
  ImportSourceError,
  undoImport,
  undoRefusal,
  type ImportBatch,
  type ImportCounts,
  type ImportProgress,
  type ImportReport
} from '../../core/import'
import { parseCommandArgs } from '../args'
import { CliFailure, formatTime, printJson, UsageError, type CliIO } from '../io'
import { keyedFailure } from '../worded-failure'
import { IMPORT_LEARN_USAGE, importLearn } from './import-learn'
import { IMPORT_SOURCE_NAMES, type ImportSourceName } from './import-sources'
import type { CliCommand, CliContext } from './types'

/** Below this many conversations an import takes a moment and prints no progress. */
const PROGRESS_MIN_SESSIONS = 200
/** While a streamed export's total is unknown, a progress line every this many conversations. */
const STREAMED_PROGRESS_EVERY = 1000

export const importCommand: CliCommand = {
  usage: `Usage: cairn [--home DIR] import hermes|openclaw|claude-code [PATH] [--dry-run] [--json]
       cairn [--home DIR] import chatgpt|claude <PATH> [--dry-run] [--json]
       cairn [--home DIR] import list [--json]
       cairn [--home DIR] import undo <id> [--json]
       cairn [--home DIR] import learn [ID] [--json]

Brings another agent's knowledge into Cairn as one batch you can undo.

hermes [PATH]   a Hermes home (default $HERMES_HOME, else ~/.hermes): memories/MEMORY.md and USER.md
                are merged into Cairn's (duplicates and near duplicates dropped; entries that do not
                fit under Cairn's limits wait in the Inbox instead of being cut), skills/ become
                Agent Skills (categories and supporting files kept; a Cairn skill of the same name is
                never overwritten: a different one gets a proposal), and the conversations in its
                state.db become searchable sessions that Cairn does not learn from. Importing the
                same home again adds only what is new. Usage figures Hermes kept
                (skills/.usage.json) come with the skills.
openclaw [PATH] an OpenClaw workspace (default $OPENCLAW_WORKSPACE_DIR, else ~/.openclaw/workspace):
                MEMORY.md and USER.md are merged into Cairn's the same way (each top-level bullet or
                paragraph is an entry, its headings written before it as context); the daily logs in
                memory/YYYY-MM-DD.md become searchable notes, not memory; skills/, .agents/skills/ and
                ~/.openclaw/skills become Agent Skills. AGENTS.md, SOUL.md and the other instruction
                files are named and left out.
claude-code [PATH]
                Claude Code's folder (default $CLAUDE_CONFIG_DIR, else ~/.claude): its memories
                (projects/*/memory/*.md) and CLAUDE.md files are only candidates: each waits in the
                Inbox for you to approve, nothing is written to memory without you. skills/ is copied
                into Cairn's own skills, where learning can improve them; a skill Cairn already reads
                read-only from ~/.claude/skills (skills.extraDirs) is copied too, and Cairn then uses
                its own copy (Claude Code's file is never changed).
chatgpt PATH    ChatGPT's data export (its .zip, its folder or its conversations.json): each
                conversation becomes a searchable session along the branch you last saw (regenerated
                answers and edits you moved away from are left out), with its title, times and the
                model of each answer. Code runs, browsing and other tool traffic are left out.
claude PATH     Claude.ai's data export (its .zip, folder or conversations.json), the same way.
                Cairn does not learn from imported conversations until you ask it to (import learn
                below). A conversation imported before is left as it is (undo that import to take a
                newer export whole).
--dry-run       say what would come in and change nothing
list            the imports so far, newest first
undo <id>       take a whole import back: every change it made is reverted (a change edited since
                is reported and left), its conversations deleted, its waiting proposals withdrawn
${IMPORT_LEARN_USAGE}
--json          print the result as JSON
`,
  async run(ctx, args) {
    const { values, positionals } = parseCommandArgs(args, { 'dry-run': { type: 'boolean' }, json: { type: 'boolean' } })
    const [action, ...rest] = positionals
    if (action === 'list') return list(ctx, rest, values.json ?? false)
    if (action === 'undo') return undo(ctx, rest, values.json ?? false)
    if (action === 'learn') return importLearn(ctx, rest, values.json ?? false)
    if (!isSource(action)) {
      throw new UsageError(action ? `Cairn cannot import from "${action}" yet; it imports from ${IMPORT_SOURCE_NAMES.join(', ')}.` : 'Name what to import, e.g. cairn import hermes.')
    }
    if (rest.length > 1) throw new UsageError(`import ${action} takes one path (got ${rest.length}).`)
    if ((action === 'chatgpt' || action === 'claude') && !rest[0]) {
      throw new UsageError(`Give the export to import, e.g. cairn import ${action} ~/Downloads/${action}-export.zip.`)
    }
    const core = await ctx.core()
    const options = { dryRun: values['dry-run'], onProgress: progressPrinter(ctx.io) }
    let report: ImportReport
    try {
      if (action === 'hermes') report = await importHermes(core, { path: rest[0] ?? defaultHermesHome(ctx.env), ...options })
      else if (action === 'openclaw') report = await importOpenClaw(core, { path: rest[0] ?? defaultOpenClawWorkspace(ctx.env), ...options })
      else if (action === 'claude-code') report = await importClaudeCode(core, { path: rest[0] ?? defaultClaudeCodeHome(ctx.env), ...options })
      else report = await importChatExport(core, { app: action, path: rest[0], ...options })
    } catch (error) {
      if (error instanceof ImportSourceError) throw keyedFailure(error)
      throw error
    }
    if (values.json) printJson(ctx.io, report)
    else printReport(ctx.io, report)
    return 0
  }
}

function isSource(action: string | undefined): action is ImportSourceName {
  return (IMPORT_SOURCE_NAMES as readonly string[]).includes(action ?? '')
}

/** Sources that bring memory and skills (the chat exports bring conversations only). */
function isAgentHome(source: ImportReport['source']): boolean {
  return source === 'hermes' || source === 'openclaw' || source === 'claude-code'
}

function printReport(io: CliIO, report: ImportReport): void {
  if (report.nothingNew) {
    io.out(`Nothing new in ${report.path}: everything there was imported before, so no import was recorded (nothing to undo).\n`)
    printProblems(io, report, 'the rest was imported before')
    return
  }
  const head = report.dryRun ? `Dry run: nothing was changed. Importing ${report.path} would bring in:` : `Imported ${report.path} as import #${report.importId}:`
  io.out(`${head}\n${countLines(report.counts, report.source).map((line) => `  ${line}\n`).join('')}`)
  printProblems(io, report, report.dryRun ? 'the rest would come in' : 'the rest came in')
  if (!report.dryRun && (report.counts.memory.proposed || report.counts.skills.proposed)) io.out('Proposals wait in the Inbox: cairn inbox\n')
  if (!report.dryRun) io.out(`Undo it all with: cairn import undo ${report.importId}\n`)
}

function printProblems(io: CliIO, report: ImportReport, rest: string): void {
  if (!report.problems.length) return
  io.out(`${counted(report.problems.length, 'problem', 'problems')} (${rest}):\n`)
  for (const problem of report.problems) io.out(`  ${problem.file}${problem.line ? `:${problem.line}` : ''}: ${problem.message}\n`)
}

/** "1 file", "2 files". */
function counted(n: number, one: string, many: string): string {
  return `${n} ${n === 1 ? one : many}`
}

function countLines(counts: ImportCounts, source: ImportReport['source']): string[] {
  const { memory, skills, sessions } = counts
  const conversations = `conversations: ${sessions.added} added (${counted(sessions.messages, 'message', 'messages')}), ${sessions.existing} imported before`
  if (!isAgentHome(source)) return [conversations]
  const memoryLine =
    source === 'claude-code'
      ? `memory: ${memory.proposed} proposed (candidates wait in the Inbox), ${memory.duplicates} already known, ${memory.refused} refused`
      : `memory: ${memory.added} added, ${counted(memory.duplicates, 'duplicate', 'duplicates')} dropped, ${memory.archived} archived (no room in the memory file), ${memory.refused} refused`
  const usage = skills.usage ? `, ${skills.usage} with their usage figures` : ''
  const skillsLine = `skills: ${skills.created} created (${counted(skills.files, 'supporting file', 'supporting files')}${usage}), ${skills.identical} already the same, ${skills.proposed} proposed (a different skill of that name exists, or it adds a download, an address or a credentials path), ${skills.refused} refused`
  if (source === 'claude-code') return [memoryLine, skillsLine]
  return [memoryLine, skillsLine, source === 'openclaw' ? `daily notes: ${sessions.added} added, ${sessions.existing} imported before` : conversations]
}

async function list(ctx: CliContext, rest: string[], json: boolean): Promise<number> {
  if (rest.length) throw new UsageError('import list takes no arguments.')
  const batches = new ImportBatches((await ctx.core()).db).list()
  if (json) {
    printJson(ctx.io, batches)
    return 0
  }
  if (!batches.length) {
    ctx.io.out(
      'No imports yet. Bring another agent in with: cairn import hermes|openclaw|claude-code [PATH], or a ChatGPT or Claude.ai export with: cairn import chatgpt|claude PATH\n'
    )
    return 0
  }
  for (const batch of batches) ctx.io.out(`#${batch.id}  ${formatTime(batch.startedAt)}  ${batch.source}  ${batch.path}  ${batchState(batch)}\n`)
  return 0
}

function batchState(batch: ImportBatch): string {
  if (batch.revertedAt !== null) return `undone ${formatTime(batch.revertedAt)}`
  if (batch.finishedAt === null) return 'did not finish'
  const { memory, skills, sessions } = batch.counts
  const problems = batch.problems.length ? `, ${counted(batch.problems.length, 'problem', 'problems')}` : ''
  const conversations = counted(sessions.added, 'conversation', 'conversations')
  if (!isAgentHome(batch.source)) return `${conversations}${problems}`
  const skillsText = counted(skills.created, 'skill', 'skills')
  if (batch.source === 'claude-code') return `${counted(memory.proposed, 'memory entry', 'memory entries')} proposed, ${skillsText}${problems}`
  const sessionsText = batch.source === 'openclaw' ? counted(sessions.added, 'daily note', 'daily notes') : conversations
  return `${counted(memory.added, 'memory entry', 'memory entries')}, ${skillsText}, ${sessionsText}${problems}`
}

async function undo(ctx: CliContext, rest: string[], json: boolean): Promise<number> {
  const id = Number(rest[0])
  if (rest.length !== 1 || !Number.isInteger(id) || id < 1) throw new UsageError('Give the import to undo, e.g. cairn import undo 3 (cairn import list shows them).')
  const core = await ctx.core()
  const result = await undoImport(core, id)
  if (json) {
    printJson(ctx.io, result)
    return result.ok && result.complete ? 0 : 1
  }
  if (!result.ok) throw keyedFailure(undoRefusal(core.db, id) ?? new Error(result.error))
  ctx.io.out(
    `Undid import #${id}: ${counted(result.reverted, 'change', 'changes')} reverted, ${counted(result.sessionsRemoved, 'conversation', 'conversations')} deleted, ${counted(result.proposalsWithdrawn, 'waiting proposal', 'waiting proposals')} withdrawn.\n`
  )
  if (result.sessionsKept) ctx.io.out(`Kept ${result.sessionsKept} imported conversations you went on with in Cairn (delete them from the conversations list if you like).\n`)
  if (result.complete) return 0
  ctx.io.err(`cairn: ${result.conflicts.length} changes were edited since the import and were left as they are:\n`)
  for (const conflict of result.conflicts) ctx.io.err(`  #${conflict.entryId} ${conflict.target}: ${conflict.error}\n`)
  ctx.io.err(`Revert them one by one with cairn revert <id>, or run cairn import undo ${id} again after changing them back.\n`)
  return 1
}

/** One stderr line per tenth of a large import's conversations, or per thousand while the total is unknown (a streamed export). */
function progressPrinter(io: CliIO): (progress: ImportProgress) => void {
  let shownTenths = 0
  return (progress) => {
    if (progress.phase !== 'sessions') return
    if (progress.total === undefined) {
      if (progress.done % STREAMED_PROGRESS_EVERY === 0) io.err(`importing conversations: ${progress.done} so far\n`)
      return
    }
    if (progress.total < PROGRESS_MIN_SESSIONS) return
    const tenths = Math.floor((progress.done / progress.total) * 10)
    if (tenths <= shownTenths) return
    shownTenths = tenths
    io.err(`importing conversations: ${progress.done}/${progress.total}\n`)
  }
}

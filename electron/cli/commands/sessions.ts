import { writeFileSync } from 'node:fs'
import { resolve } from 'node:path'
import { exportFormats, exportSession, type ExportFormat } from '../../core/sessions'
import { parseCommandArgs, parseLimit } from '../args'
import { CliFailure, formatTime, oneLine, printJson, UsageError } from '../io'
import type { CliCommand, CliContext } from './types'

export const sessionsCommand: CliCommand = {
  usage: `Usage: cairn [--home DIR] sessions [--json] [--limit N]
       cairn [--home DIR] sessions export <id> [--format md|json] [--out FILE]

Lists conversations, most recent first (📌 pinned, 🗄 archived). Continue one with: cairn chat "…" --session ID

  export <id>   the whole conversation as Markdown (default) or JSON, to stdout or to --out FILE;
                the skill hints Cairn adds for the model are left out
`,
  async run(ctx, args) {
    if (args[0] === 'export') return exportCommand(ctx, args.slice(1))
    const { values, positionals } = parseCommandArgs(args, { json: { type: 'boolean' }, limit: { type: 'string' } })
    if (positionals.length) throw new UsageError(`Unknown sessions action "${positionals[0]}". Use: cairn sessions [export <id>]`)
    const core = await ctx.core()
    const sessions = core.sessions.list({ limit: parseLimit(values.limit, 20) })
    if (values.json) {
      printJson(ctx.io, sessions.map(({ systemPrompt: _prompt, ...rest }) => rest))
      return 0
    }
    if (sessions.length === 0) {
      ctx.io.out('No sessions yet. Start one with: cairn chat "hello"\n')
      return 0
    }
    for (const s of sessions) {
      const mark = s.pinned ? '📌 ' : s.archived ? '🗄 ' : ''
      ctx.io.out(`${s.id}  ${formatTime(s.updatedAt)}  ${String(s.messageCount).padStart(4)} msgs  ${mark}${oneLine(s.title, 60) || '(untitled)'}\n`)
    }
    return 0
  }
}

async function exportCommand(ctx: CliContext, args: string[]): Promise<number> {
  const { values, positionals } = parseCommandArgs(args, { format: { type: 'string', default: 'md' }, out: { type: 'string' } })
  if (positionals.length !== 1) throw new UsageError('Name one conversation: cairn sessions export <id> [--format md|json] [--out FILE]. List ids with: cairn sessions')
  const format = values.format as ExportFormat
  if (!exportFormats.includes(format)) throw new UsageError(`--format must be ${exportFormats.join(' or ')}, not "${values.format}".`)
  const core = await ctx.core()
  const sessionId = positionals[0]
  if (!core.sessions.get(sessionId)) throw new CliFailure(`There is no conversation ${sessionId}. List them with: cairn sessions`)
  const file = exportSession(core.sessions, sessionId, format)
  if (!values.out) {
    ctx.io.out(file.text)
    return 0
  }
  const target = resolve(values.out)
  try {
    writeFileSync(target, file.text)
  } catch (error) {
    throw new CliFailure(`Could not write ${target}: ${(error as Error).message}`)
  }
  ctx.io.err(`Exported ${sessionId} to ${target}\n`)
  return 0
}

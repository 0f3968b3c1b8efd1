import { parseCommandArgs, parseLimit } from '../args'
import { formatTime, oneLine, printJson } from '../io'
import type { CliCommand } from './types'

export const sessionsCommand: CliCommand = {
  usage: `Usage: cairn [--home DIR] sessions [--json] [--limit N]

Lists conversations, most recent first. Continue one with: cairn chat "…" --session ID
`,
  async run(ctx, args) {
    const { values } = parseCommandArgs(args, { json: { type: 'boolean' }, limit: { type: 'string' } })
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
      ctx.io.out(`${s.id}  ${formatTime(s.updatedAt)}  ${String(s.messageCount).padStart(4)} msgs  ${oneLine(s.title, 60) || '(untitled)'}\n`)
    }
    return 0
  }
}

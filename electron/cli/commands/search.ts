import { searchSessions } from '../../core/sessions'
import { parseCommandArgs, parseLimit } from '../args'
import { formatTime, oneLine, printJson, UsageError } from '../io'
import type { CliCommand } from './types'

export const searchCommand: CliCommand = {
  usage: `Usage: cairn [--home DIR] search <query> [--json] [--limit N]

Finds past conversations. Ask in plain words ("how did we fix the docker build?"); no search syntax needed.
`,
  async run(ctx, args) {
    const { values, positionals } = parseCommandArgs(args, { json: { type: 'boolean' }, limit: { type: 'string' } })
    const query = positionals.join(' ').trim()
    if (!query) throw new UsageError('Give something to search for.')
    const core = await ctx.core()
    const result = searchSessions(core.db, query, { limit: parseLimit(values.limit, 5, 10), includeCurrent: true })
    if (values.json) {
      printJson(ctx.io, result)
      return 0
    }
    if (result.sessions.length === 0) {
      ctx.io.out(`No past conversation matches "${query}".\n`)
      return 0
    }
    result.sessions.forEach((hit, i) => {
      ctx.io.out(`${i + 1}. ${hit.title ? `"${oneLine(hit.title, 60)}"  ` : ''}session ${hit.sessionId}  ${formatTime(hit.startedAt)}\n`)
      ctx.io.out(`   ${oneLine(hit.snippet, 160)}\n`)
    })
    return 0
  }
}

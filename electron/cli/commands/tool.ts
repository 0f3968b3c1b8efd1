import { ToolArgumentsError, parseToolArguments } from '../../core/tools/run-tool'
import { newTurnState } from '../../core/tools/types'
import { parseCommandArgs } from '../args'
import { printJson, UsageError } from '../io'
import type { CliCommand } from './types'

export const toolCommand: CliCommand = {
  usage: `Usage: cairn [--home DIR] tool <name> '<json args>'

Runs one tool and prints its JSON result. Exit 0 when the tool ran (even with "success": false),
2 on bad usage. Tools: memory, skills_list, skill_view, skill_manage, session_search.
Example: cairn tool memory '{"action":"add","target":"user","content":"Prefers metric units"}'
`,
  async run(ctx, args) {
    const { positionals } = parseCommandArgs(args, {})
    const [name, json = '{}', ...extra] = positionals
    if (!name) throw new UsageError('Missing the tool name.')
    if (extra.length) throw new UsageError('Pass the tool arguments as one JSON string (quote it).')
    const core = await ctx.core()
    const tools = core.learningTools()
    const tool = tools.find((t) => t.name === name)
    if (!tool) throw new UsageError(`Unknown tool "${name}". Available: ${tools.map((t) => t.name).join(', ')}.`)
    let parsed: unknown
    try {
      parsed = parseToolArguments(tool, json)
    } catch (error) {
      if (error instanceof ToolArgumentsError) throw new UsageError(error.message)
      throw error
    }
    const result = await tool.run(parsed, { write: { source: 'user', sessionId: null }, turn: newTurnState() })
    printJson(ctx.io, result)
    return 0
  }
}

import { parseCommandArgs } from '../args'
import { CliFailure, UsageError } from '../io'
import { appVersion } from './serve'
import type { CliContext } from './types'

export const DEFAULT_HTTP_PORT = 7828
const MIN_TOKEN_CHARS = 16

export const mcpServeUsage = `Usage: cairn [--home DIR] mcp serve [--http [--port N] [--token TOKEN]]

Serves Cairn's memory, skills and past conversations to your other agents (Claude Code, Claude
Desktop, Cursor, Codex, another Cairn) over MCP. Their writes follow learning.mode (auto applies,
ask makes Inbox proposals, off refuses) and show on the timeline as theirs ("Claude Code (MCP)").

  (no option)      stdio: for an agent that starts Cairn itself, e.g.
                   claude mcp add cairn -- cairn mcp serve
  --http           Streamable HTTP at http://127.0.0.1:<port>/mcp (127.0.0.1 only), for agents
                   that connect to a running server; prints the URL with its access token
  --port N         the HTTP port (default ${DEFAULT_HTTP_PORT}; 0 picks a free one)
  --token TOKEN    the access token (at least ${MIN_TOKEN_CHARS} characters) instead of a random one;
                   or set CAIRN_MCP_TOKEN, which other users of this machine cannot read from
                   the process list as they can an argument

Stop with Ctrl+C (HTTP), or by closing stdin (stdio).
`

/** `cairn mcp serve`: the `cairn mcp` command hands `serve`'s arguments (after the word `serve`) here. */
export async function mcpServeCommand(argv: string[], context: CliContext): Promise<number> {
  const { values, positionals } = parseCommandArgs(argv, { http: { type: 'boolean' }, port: { type: 'string' }, token: { type: 'string' } })
  if (positionals.length) throw new UsageError(`Unexpected argument "${positionals[0]}".`)
  if (!values.http && (values.port !== undefined || values.token !== undefined)) throw new UsageError('--port and --token go with --http.')
  const port = values.port === undefined ? DEFAULT_HTTP_PORT : Number(values.port)
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw new UsageError('--port must be a number from 0 to 65535.')
  const fromEnv = values.http && values.token === undefined ? context.env.CAIRN_MCP_TOKEN?.trim() || undefined : undefined
  const token = values.token ?? fromEnv
  if (token !== undefined && token.length < MIN_TOKEN_CHARS) throw new UsageError(`${fromEnv ? 'CAIRN_MCP_TOKEN' : '--token'} must be at least ${MIN_TOKEN_CHARS} characters.`)

  const core = await context.core({ watchSkills: true })
  // Loaded only here, so the SDK's server side never slows down the start of other commands.
  const { createCairnMcpServer, serveMcpStdio, startMcpHttpServer } = await import('../../core/mcp-server')
  const version = appVersion()
  const stop = stopSignal()
  if (!values.http) {
    // stdout carries the protocol: every word for people goes to stderr.
    context.io.err(`Cairn MCP server (stdio) for ${core.paths.root}\n`)
    await serveMcpStdio(createCairnMcpServer(core, { version }), stop.signal)
    stop.dispose()
    return 0
  }
  let server
  try {
    server = await startMcpHttpServer({
      createServer: () => createCairnMcpServer(core, { version }),
      port,
      token,
      onError: (error) => context.io.err(`cairn mcp serve: ${error.message}\n`)
    })
  } catch (error) {
    stop.dispose()
    const { code } = error as NodeJS.ErrnoException
    throw new CliFailure(code === 'EADDRINUSE' ? `Port ${port} is in use: pass another with --port N (0 picks a free one).` : (error as Error).message)
  }
  context.io.out(
    `Cairn's MCP server is running for ${core.paths.root}\n\n` +
      `  URL: ${server.urlWithToken}\n` +
      `  (or ${server.url} with the header "Authorization: Bearer ${server.token}")\n\n` +
      `Add it to Claude Code:\n  claude mcp add --transport http cairn "${server.urlWithToken}"\n\n` +
      'Press Ctrl+C to stop.\n'
  )
  await new Promise<void>((resolve) => stop.signal.addEventListener('abort', () => resolve(), { once: true }))
  stop.dispose()
  context.io.err('Stopping…\n')
  await server.close()
  return 0
}

/** Aborts on Ctrl+C or SIGTERM; `dispose` stops listening. */
function stopSignal(): { signal: AbortSignal; dispose(): void } {
  const controller = new AbortController()
  const abort = () => controller.abort()
  process.once('SIGINT', abort)
  process.once('SIGTERM', abort)
  return {
    signal: controller.signal,
    dispose() {
      process.off('SIGINT', abort)
      process.off('SIGTERM', abort)
    }
  }
}

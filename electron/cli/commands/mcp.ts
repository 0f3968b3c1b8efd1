import { homedir } from 'node:os'
import { join } from 'node:path'
import type { McpImportCandidate, McpImportPreview, McpImportSource } from '../../../shared/ipc/contract-mcp'
import { mcpImportSources } from '../../../shared/ipc/contract-mcp'
import type { McpServerInfo } from '../../../shared/mcp'
import { putServer, withSecretRefs, secretsOfImported, isObject } from '../../core/app/handlers/mcp-config'
import { previewImport } from '../../core/mcp/config-import'
import { McpManager, McpUnknownServerError } from '../../core/mcp/mcp-manager'
import { ProcessSecretStore, secretEnvName } from '../../serve/process-secrets'
import { parseCommandArgs } from '../args'
import { CliFailure, printJson, UsageError, type CliIO } from '../io'
import { mcpServeCommand, mcpServeUsage } from './mcp-serve'
import { appVersion } from './serve'
import { visibleControls } from '../../../shared/visible-text'
import type { CliCommand, CliContext } from './types'

const ERROR_WORDS: Record<NonNullable<McpServerInfo['error']>['code'], string> = {
  config_invalid: 'its config is not valid',
  secret_missing: 'a secret it needs is not set',
  spawn_failed: 'its program could not be started',
  connect_failed: 'Cairn could not connect to it',
  unauthorized: 'the server refused the credentials',
  timeout: 'it did not answer in time',
  crashed: 'it stopped unexpectedly'
}

export const mcpCommand: CliCommand = {
  usage: `Usage: cairn [--home DIR] mcp <list|test|import|serve> [options]

The MCP servers Cairn uses as tools (config.json → "mcpServers", Claude Desktop's format), and
Cairn itself as an MCP server for your other agents ("serve", below).

  list [--json]            start every enabled server, wait for them (mcp.startWaitMs, at most
                           10 s), and show each one's state and tools; a failed one with why and
                           the end of its log
  test <name> [--json]     connect to one server now: its tools, or the error and the end of its log
                           (exit 0 when it is ready, 1 when it failed)
  import [--from claude-desktop|claude-code] [--dry-run] [--json]
                           bring in the servers Claude Desktop (claude_desktop_config.json) or
                           Claude Code (.mcp.json here, ~/.claude.json) has; both when --from is not
                           given. A server Cairn has with the same name is skipped. Env and header
                           values are not written to config.json: set the CAIRN_SECRET_… variable
                           printed for each, or import in the app (Settings → Tools), which keeps
                           them encrypted.

  serve [--http …]         Cairn's memory, skills and conversations as an MCP server (below)

Logs: <home>/logs/mcp/<server>.log

${mcpServeUsage}`,
  async run(ctx, args) {
    const [sub, ...rest] = args
    if (sub === 'list') return listCommand(ctx, rest)
    if (sub === 'test') return testCommand(ctx, rest)
    if (sub === 'import') return importCommand(ctx, rest)
    if (sub === 'serve') return mcpServeCommand(rest, ctx)
    throw new UsageError(sub ? `Unknown mcp command "${sub}".` : 'Say what to do: cairn mcp list, test <name> or import.')
  }
}

async function withManager<T>(ctx: CliContext, use: (manager: McpManager, startWaitMs: number) => Promise<T>): Promise<T> {
  const core = await ctx.core()
  const secrets = new ProcessSecretStore(ctx.env)
  const manager = new McpManager({
    servers: () => core.config.get().mcpServers,
    settings: () => core.config.get().mcp,
    logDir: join(core.paths.logsDir, 'mcp'),
    resolveSecret: (name) => secrets.getSecret(name),
    env: ctx.env,
    clientVersion: appVersion()
  })
  try {
    return await use(manager, core.config.get().mcp.startWaitMs)
  } finally {
    await manager.close()
  }
}

async function listCommand(ctx: CliContext, args: string[]): Promise<number> {
  const { values } = parseCommandArgs(args, { json: { type: 'boolean' } })
  return withManager(ctx, async (manager, startWaitMs) => {
    manager.start()
    await manager.whenSettled(Math.min(startWaitMs, 10_000))
    const servers = manager.list()
    if (values.json) printJson(ctx.io, servers)
    else if (servers.length === 0) ctx.io.out('No MCP servers are configured. Add them to "mcpServers" in config.json, or run "cairn mcp import".\n')
    else for (const server of servers) printServer(ctx.io, server)
    return 0
  })
}

async function testCommand(ctx: CliContext, args: string[]): Promise<number> {
  const { values, positionals } = parseCommandArgs(args, { json: { type: 'boolean' } })
  if (positionals.length !== 1) throw new UsageError('Name one server: cairn mcp test <name>.')
  return withManager(ctx, async (manager) => {
    let server: McpServerInfo
    try {
      server = await manager.test(positionals[0])
    } catch (error) {
      if (error instanceof McpUnknownServerError) throw new CliFailure(error.message)
      throw error
    }
    if (values.json) printJson(ctx.io, server)
    else printServer(ctx.io, server)
    return server.status === 'ready' ? 0 : 1
  })
}

/** What a server sent (names, descriptions, errors, its log) is printed with hiding characters written out. */
function printServer(io: CliIO, server: McpServerInfo): void {
  const shown = (text: string) => visibleControls(text, { newlines: false })
  const state = server.status === 'ready' ? `ready, ${server.tools.length} tool${server.tools.length === 1 ? '' : 's'}` : server.status
  io.out(`${shown(server.name)}  ${state}  (${server.transport}: ${shown(server.target)})\n`)
  if (server.status === 'ready') {
    for (const tool of server.tools) {
      const marks = [tool.enabled ? null : 'off', tool.autoApprove ? 'runs without asking' : null].filter(Boolean).join(', ')
      io.out(`    ${shown(tool.name)}${marks ? ` [${marks}]` : ''}${tool.description ? `  ${shown(firstLine(tool.description))}` : ''}\n`)
    }
  }
  if (server.error) {
    io.out(`    Failed: ${ERROR_WORDS[server.error.code]} (${server.error.code})\n    ${shown(server.error.message)}\n`)
    if (server.logTail.trim()) io.out(`    Log:\n${server.logTail.trimEnd().split('\n').map((line) => `      ${shown(line)}`).join('\n')}\n`)
  }
}

function firstLine(text: string): string {
  const line = text.split('\n')[0].trim()
  return line.length > 90 ? `${line.slice(0, 89)}…` : line
}

async function importCommand(ctx: CliContext, args: string[]): Promise<number> {
  const { values } = parseCommandArgs(args, { from: { type: 'string' }, 'dry-run': { type: 'boolean' }, json: { type: 'boolean' } })
  if (values.from !== undefined && !(mcpImportSources as readonly string[]).includes(values.from)) throw new UsageError('--from takes claude-desktop or claude-code.')
  const sources = values.from ? [values.from as McpImportSource] : [...mcpImportSources]
  const core = await ctx.core()
  const secrets = new ProcessSecretStore(ctx.env)
  const where = { home: ctx.env.HOME ?? homedir(), appData: ctx.env.APPDATA, cwd: process.cwd(), platform: process.platform }
  const previews = sources.map((from) => previewImport(from, where, core.config.get().mcpServers, (name) => secrets.getSecret(name)))
  // The first file that has a server of a name wins (the project's .mcp.json before ~/.claude.json).
  const picked = new Map<string, McpImportCandidate>()
  for (const candidate of previews.flatMap((preview) => preview.servers)) if (candidate.status === 'new' && !picked.has(candidate.name)) picked.set(candidate.name, candidate)
  const converted = [...picked.values()].map((candidate) => ({ candidate, ...withSecretRefs(candidate.name, candidate.server, secretsOfImported(candidate.name, candidate.server)) }))
  if (!values['dry-run'] && converted.length > 0) {
    await core.config.edit((file) => ({
      ...file,
      mcpServers: converted.reduce((servers, item) => putServer(servers, item.candidate.name, item.server), isObject(file.mcpServers) ? file.mcpServers : {})
    }))
  }
  const imported = converted.map((item) => ({
    name: item.candidate.name,
    source: item.candidate.source,
    secrets: item.writes.map(([name]) => secretEnvName(name))
  }))
  if (values.json) {
    printJson(ctx.io, { dryRun: Boolean(values['dry-run']), previews, imported })
  } else {
    for (const preview of previews) printPreview(ctx.io, preview)
    printImported(ctx.io, imported, Boolean(values['dry-run']))
  }
  return previews.some((preview) => preview.problems.length > 0) ? 1 : 0
}

const STATUS_WORDS: Record<McpImportCandidate['status'], string> = {
  new: 'new',
  identical: 'already in Cairn, skipped',
  conflict: 'Cairn has a different server with this name, skipped (import it under another name in the app)',
  invalid: 'not valid, skipped'
}

function printPreview(io: CliIO, preview: McpImportPreview): void {
  io.out(`${preview.from === 'claude-desktop' ? 'Claude Desktop' : 'Claude Code'}:\n`)
  for (const file of preview.files) io.out(`  ${file.found ? 'read' : 'not there'}  ${file.path}\n`)
  for (const problem of preview.problems) io.out(`  PROBLEM  ${problem.file}: ${problem.error}\n`)
  for (const server of preview.servers) io.out(`    ${server.name}: ${STATUS_WORDS[server.status]}${server.error ? ` (${server.error})` : ''}\n`)
  if (preview.servers.length === 0 && preview.problems.length === 0) io.out('    no servers\n')
}

function printImported(io: CliIO, imported: Array<{ name: string; source: string; secrets: string[] }>, dryRun: boolean): void {
  if (imported.length === 0) {
    io.out('\nNothing to import.\n')
    return
  }
  io.out(`\n${dryRun ? 'Would import' : 'Imported'} ${imported.length} server${imported.length === 1 ? '' : 's'}: ${imported.map((item) => item.name).join(', ')}.\n`)
  const withSecrets = imported.filter((item) => item.secrets.length > 0)
  if (withSecrets.length > 0) {
    io.out('Env and header values are not kept in config.json. Set these before "cairn chat" or "cairn serve" (the values are in the file named):\n')
    for (const item of withSecrets) io.out(`  ${item.name} (${item.source}): ${item.secrets.join(', ')}\n`)
  }
  if (!dryRun) io.out('Run "cairn mcp list" to start them.\n')
}

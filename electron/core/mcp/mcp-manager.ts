import type { ContentBlock } from '@modelcontextprotocol/client'
import { KeyedError } from '../../../shared/keyed-error'
import type { McpPromptInfo, McpResourceInfo, McpServerConfig, McpServerInfo, McpSettings } from '../../../shared/mcp'
import { isRemoteServer, parseMcpServerConfig } from '../../../shared/mcp'
import { estimatePromptTokens } from '../provider/tokens'
import { toolSchema } from '../tools/run-tool'
import type { ToolDef } from '../tools/types'
import { cutEnd } from '../text/cut'
import { MCP_DESCRIPTION_MAX, mcpResultText, mcpToolDef, type McpCallOutcome, type McpSnapshotTool, type McpToolCaller } from './mcp-tools'
import { describeTarget, displayUrl, resolveServerValues } from './server-env'
import { McpServerLog } from './server-log'
import { McpCallError, McpServerRunner, systemTimers, type McpTimers } from './server-runner'
import { McpToolNames } from './tool-names'
import { toolSearchTools } from './tool-search'

export interface McpManagerOptions {
  /** config.mcpServers as written (raw: each server is checked on its own). */
  servers: () => Record<string, unknown>
  settings: () => McpSettings
  /** `<home>/logs/mcp`: one `<server>.log` each. */
  logDir: string
  resolveSecret?: (name: string) => string | null
  env?: NodeJS.ProcessEnv
  clientVersion: string
  /** Restart timers (tests drive them); default: real ones that never keep the process alive. */
  timers?: McpTimers
}

export class McpUnknownServerError extends Error {
  constructor(readonly server: string) {
    super(`There is no MCP server named "${server}" in config.json (mcpServers).`)
    this.name = 'McpUnknownServerError'
  }
}

type Configured = { name: string; raw: unknown } & ({ ok: true; config: McpServerConfig } | { ok: false; error: string })

interface Running {
  runner: McpServerRunner
  /** {@link connectionKey} of the config it was started with: a different one restarts it on reload. */
  key: string
}

/**
 * What a server connects with (command, args, env, cwd, url, headers, timeout): switching it on or
 * off, a tool's enabled or always-allowed flag leave it out, so toggling them never restarts a server.
 */
function connectionKey(config: McpServerConfig): string {
  const { enabled: _enabled, disabledTools: _disabled, autoApprove: _approved, ...connection } = config
  return JSON.stringify(connection)
}

/**
 * The user's MCP servers in this process: starts them (in parallel, never blocking the caller),
 * restarts crashed ones, and hands each new conversation a fixed snapshot of their tools.
 */
export class McpManager implements McpToolCaller {
  private readonly running = new Map<string, Running>()
  private readonly logs = new Map<string, McpServerLog>()
  private readonly listeners = new Set<() => void>()
  private readonly timers: McpTimers
  private started = false
  private closed = false

  constructor(private readonly options: McpManagerOptions) {
    this.timers = options.timers ?? systemTimers
  }

  /** Every configured server, in config order, as it is now; never starts anything. */
  list(): McpServerInfo[] {
    const names = this.exposedNames()
    return this.configured().map((entry) => this.info(entry, names))
  }

  /** Starts every enabled server not started yet, in parallel; returns at once. */
  start(): void {
    if (this.closed) return
    this.started = true
    for (const entry of this.configured()) if (entry.ok && entry.config.enabled && !this.running.has(entry.name)) this.run(entry).runner.start()
  }

  /** Resolves once no server is starting, or after `timeoutMs`. */
  async whenSettled(timeoutMs: number): Promise<void> {
    const deadline = this.timers.now() + timeoutMs
    while (!this.closed) {
      const starting = [...this.running.values()].filter(({ runner }) => runner.status === 'starting')
      const left = deadline - this.timers.now()
      if (!starting.length || left <= 0) return
      let timer: unknown = null
      await Promise.race([Promise.all(starting.map(({ runner }) => runner.whenSettled())), new Promise<void>((resolve) => (timer = this.timers.setTimeout(resolve, left)))])
      this.timers.clearTimeout(timer)
    }
  }

  /** Connects one server again now and reports it; a disabled server is tried once and stopped again. */
  async test(name: string): Promise<McpServerInfo> {
    const entry = this.configured().find((candidate) => candidate.name === name)
    if (!entry) throw new McpUnknownServerError(name)
    if (!entry.ok) return this.info(entry, this.exposedNames())
    const existing = this.running.get(name)
    const current = existing && existing.key === connectionKey(entry.config) ? existing : await this.replace(entry)
    await current.runner.reconnect()
    const info = this.info(entry, this.exposedNames())
    if (!entry.config.enabled) {
      await current.runner.stop('tested while disabled')
      this.running.delete(name)
      return { ...info, enabled: false }
    }
    return info
  }

  /** Re-reads the config: new and enabled servers start (once started), removed and disabled ones stop, changed ones restart. */
  async reload(): Promise<void> {
    const configured = this.configured()
    const stops: Promise<void>[] = []
    for (const [name, { runner }] of this.running) {
      const entry = configured.find((candidate) => candidate.name === name)
      if (!entry || !entry.ok || !entry.config.enabled) {
        stops.push(runner.stop(entry ? 'disabled in the config' : 'removed from the config'))
        this.running.delete(name)
      }
    }
    await Promise.all(stops)
    for (const entry of configured) {
      if (!entry.ok || !entry.config.enabled) continue
      const existing = this.running.get(entry.name)
      if (existing && existing.key === connectionKey(entry.config)) continue
      if (!existing && !this.started) continue
      ;(await this.replace(entry)).runner.start()
    }
    this.changed()
  }

  /** The server's log (its stderr and Cairn's lines about it), the last `maxChars`. */
  readLog(name: string, maxChars?: number): string {
    return this.logOf(name).read(maxChars)
  }

  /**
   * The MCP tools for a new conversation, fixed from now on: every enabled tool of the servers ready
   * now, or, when they pass the budgets (`mcp.toolSearch`), the two tools that find and run them.
   */
  conversationTools(): ToolDef[] {
    const entries = this.snapshotEntries()
    if (!entries.length) return []
    const defs = entries.map((entry) => mcpToolDef(entry, this))
    const settings = this.options.settings()
    const tokens = estimatePromptTokens([], defs.map((tool) => toolSchema(tool)))
    const search =
      settings.toolSearch === 'always' ||
      (settings.toolSearch === 'auto' && (defs.length > settings.toolSearchMaxTools || tokens > settings.toolSearchMaxTokens))
    return search ? toolSearchTools(entries, new Map(defs.map((tool) => [tool.name, tool]))) : defs
  }

  /** Every enabled tool of the ready servers, in config order, with its exposed name. */
  private snapshotEntries(): McpSnapshotTool[] {
    const names = this.exposedNames()
    return this.configured().flatMap((entry) => {
      const connection = this.running.get(entry.name)?.runner
      if (!entry.ok || !entry.config.enabled || connection?.status !== 'ready' || !connection.connection) return []
      const disabled = new Set(entry.config.disabledTools)
      return connection.connection.tools
        .filter((tool) => !disabled.has(tool.name))
        .map((tool) => ({ server: entry.name, tool: tool.name, exposedName: names.get(entry.name)?.get(tool.name) ?? tool.name, definition: tool, serverKey: connectionKey(entry.config) }))
    })
  }

  /**
   * Runs a snapshot's tool on its server: refused when the server was changed or replaced since the
   * snapshot (a grant never passes to another program under the same name) or the user turned the
   * tool off meanwhile. Errors and results have the server's secret values replaced.
   */
  async callTool(entry: McpSnapshotTool, args: Record<string, unknown>, signal?: AbortSignal): Promise<McpCallOutcome> {
    const { server, tool } = entry
    const running = this.running.get(server)
    // words-ok: a tool call's refusals are the tool result the model reads (runTool returns them).
    if (!running) throw new McpCallError(`The MCP server "${server}" is not running: it was removed or disabled in the config, or Cairn is quitting.`)
    // words-ok: the model's tool result, as above.
    if (running.key !== entry.serverKey) throw new McpCallError(`The MCP server "${server}" was changed in the config since this conversation started; reload its tools to use it again.`)
    const current = this.configured().find((candidate) => candidate.name === server)
    // words-ok: the model's tool result, as above.
    if (current?.ok && current.config.disabledTools.includes(tool)) throw new McpCallError(`${tool} of the MCP server "${server}" was turned off in Settings; it does not run any more.`)
    const log = this.logOf(server)
    try {
      const result = await running.runner.callTool(tool, args, signal)
      return { text: log.redact(mcpResultText(result)), isError: result.isError === true }
    } catch (error) {
      const message = log.redact((error as Error).message)
      throw error instanceof McpCallError ? new McpCallError(message) : new Error(message)
    }
  }

  async listResources(): Promise<McpResourceInfo[]> {
    const lists = await Promise.all(
      this.readyRunners('resources').map(async (runner) => {
        try {
          const { resources } = await runner.connection!.client.listResources(undefined, { timeout: runner.config.timeoutMs })
          return resources.map((r) => ({ server: runner.name, uri: r.uri, name: r.name, title: r.title, description: r.description, mimeType: r.mimeType }))
        } catch (error) {
          this.logOf(runner.name).note(`listing resources failed: ${(error as Error).message}`)
          return []
        }
      })
    )
    return lists.flat()
  }

  async readResource(server: string, uri: string): Promise<{ name: string; mimeType?: string; text: string }> {
    const runner = this.readyRunner(server)
    const { contents } = await runner.connection!.client.readResource({ uri }, { timeout: runner.config.timeoutMs })
    const text = mcpResultText({ content: contents.map((resource) => ({ type: 'resource', resource })) as ContentBlock[] })
    const plain = contents.every((c) => 'text' in c) ? contents.map((c) => (c as { text: string }).text).join('\n') : text
    return { name: uri.split('/').filter(Boolean).pop() ?? uri, mimeType: contents[0]?.mimeType, text: this.logOf(server).redact(plain) }
  }

  async listPrompts(): Promise<McpPromptInfo[]> {
    const lists = await Promise.all(
      this.readyRunners('prompts').map(async (runner) => {
        try {
          const { prompts } = await runner.connection!.client.listPrompts(undefined, { timeout: runner.config.timeoutMs })
          return prompts.map((p) => ({ server: runner.name, name: p.name, title: p.title, description: p.description, arguments: (p.arguments ?? []).map((a) => ({ name: a.name, description: a.description, required: a.required })) }))
        } catch (error) {
          this.logOf(runner.name).note(`listing prompts failed: ${(error as Error).message}`)
          return []
        }
      })
    )
    return lists.flat()
  }

  /** The prompt's messages flattened to text (for the composer). */
  async getPrompt(server: string, name: string, args: Record<string, string>): Promise<{ text: string }> {
    const runner = this.readyRunner(server)
    const { messages } = await runner.connection!.client.getPrompt({ name, arguments: args }, { timeout: runner.config.timeoutMs })
    return { text: this.logOf(server).redact(messages.map((message) => mcpResultText({ content: [message.content as ContentBlock] })).join('\n\n')) }
  }

  /** The process id of a stdio server while it is connected (diagnostics: which child to look at). */
  pidOf(server: string): number | null {
    return this.running.get(server)?.runner.connection?.pid ?? null
  }

  onChange(listener: () => void): () => void {
    this.listeners.add(listener)
    return () => this.listeners.delete(listener)
  }

  /** Stops every server (stdio children are killed); nothing starts after this. */
  async close(): Promise<void> {
    this.closed = true
    const all = [...this.running.values()]
    this.running.clear()
    await Promise.all(all.map(({ runner }) => runner.stop('Cairn is closing')))
  }

  private configured(): Configured[] {
    return Object.entries(this.options.servers() ?? {}).map(([name, raw]) => ({ name, raw, ...parseMcpServerConfig(raw) }))
  }

  private run(entry: Configured & { ok: true }): Running {
    const log = this.logOf(entry.name)
    const runner = new McpServerRunner(entry.name, entry.config, {
      log,
      clientVersion: this.options.clientVersion,
      resolve: () => resolveServerValues(entry.name, entry.config, { resolveSecret: this.options.resolveSecret, env: this.options.env ?? process.env }),
      timers: this.timers,
      onChange: () => this.changed()
    })
    const running = { runner, key: connectionKey(entry.config) }
    this.running.set(entry.name, running)
    return running
  }

  private async replace(entry: Configured & { ok: true }): Promise<Running> {
    await this.running.get(entry.name)?.runner.stop('its config changed')
    return this.run(entry)
  }

  private logOf(name: string): McpServerLog {
    let log = this.logs.get(name)
    if (!log) this.logs.set(name, (log = new McpServerLog(this.options.logDir, name)))
    return log
  }

  private readyRunners(capability: 'resources' | 'prompts'): McpServerRunner[] {
    return [...this.running.values()].map(({ runner }) => runner).filter((runner) => runner.status === 'ready' && runner.connection?.client.getServerCapabilities()?.[capability])
  }

  private readyRunner(server: string): McpServerRunner {
    const runner = this.running.get(server)?.runner
    if (!runner) throw new McpUnknownServerError(server)
    // A person asked (a resource or prompt for the composer): keyed, worded by the face.
    if (runner.status !== 'ready' || !runner.connection) {
      throw runner.error
        ? new KeyedError('mcp.server_not_ready_because', { server, status: runner.status, problem: runner.error.message })
        : new KeyedError('mcp.server_not_ready', { server, status: runner.status })
    }
    return runner
  }

  /** Exposed names for every connected server's tools, assigned in config order so they are the same for the same servers. */
  private exposedNames(): Map<string, Map<string, string>> {
    const names = new McpToolNames()
    const out = new Map<string, Map<string, string>>()
    for (const entry of this.configured()) {
      const tools = this.running.get(entry.name)?.runner.connection?.tools ?? []
      out.set(entry.name, new Map(tools.map((tool) => [tool.name, names.nameOf(entry.name, tool.name)])))
    }
    return out
  }

  private info(entry: Configured, names: Map<string, Map<string, string>>): McpServerInfo {
    const log = this.logOf(entry.name)
    const base = { name: entry.name, logTail: log.tailText(), resourceCount: 0, promptCount: 0, restarts: 0, tools: [] }
    if (!entry.ok) {
      const raw = (typeof entry.raw === 'object' && entry.raw !== null ? entry.raw : {}) as Record<string, unknown>
      const target = typeof raw.url === 'string' ? displayUrl(raw.url) : typeof raw.command === 'string' ? raw.command : ''
      return { ...base, transport: typeof raw.url === 'string' ? 'http' : 'stdio', target, enabled: raw.enabled !== false, status: 'failed', error: { code: 'config_invalid', message: entry.error } }
    }
    const { config } = entry
    const transport = isRemoteServer(config) ? (config.type === 'sse' ? 'sse' : 'http') : 'stdio'
    const runner = this.running.get(entry.name)?.runner
    const connection = runner?.connection
    const disabled = new Set(config.disabledTools)
    const approved = new Set(config.autoApprove)
    return {
      ...base,
      transport: connection?.transport ?? transport,
      target: describeTarget(config),
      enabled: config.enabled,
      status: !config.enabled && !runner ? 'disabled' : runner?.status ?? 'stopped',
      tools: (connection?.tools ?? []).map((tool) => ({
        name: tool.name,
        exposedName: names.get(entry.name)?.get(tool.name) ?? tool.name,
        title: tool.title,
        // Bounded: every change sends the whole list to the windows.
        description: cutEnd(tool.description ?? '', MCP_DESCRIPTION_MAX),
        enabled: !disabled.has(tool.name),
        autoApprove: approved.has(tool.name)
      })),
      resourceCount: connection?.resourceCount ?? 0,
      promptCount: connection?.promptCount ?? 0,
      error: runner?.error,
      restarts: runner?.restarts ?? 0,
      nextRestartAt: runner?.nextRestartAt,
      serverVersion: connection?.serverVersion
    }
  }

  private changed(): void {
    for (const listener of this.listeners) {
      try {
        listener()
      } catch (error) {
        console.error('cairn: an MCP change listener failed:', error)
      }
    }
  }
}

import { SdkError, SdkErrorCode, type CallToolResult } from '@modelcontextprotocol/client'
import { isRemoteServer, type McpServerConfig, type McpServerProblem, type McpServerStatus } from '../../../shared/mcp'
import { classifyConnectError, connectServer, McpConnectError, type McpConnection } from './server-connection'
import { McpValueError, type ResolvedServer } from './server-env'
import type { McpServerLog } from './server-log'

/** Time as the runners see it: injectable so tests drive restarts without waiting; real timers never keep the process alive. */
export interface McpTimers {
  now(): number
  setTimeout(run: () => void, ms: number): unknown
  clearTimeout(handle: unknown): void
}

export const systemTimers: McpTimers = {
  now: () => Date.now(),
  setTimeout(run, ms) {
    const timer = setTimeout(run, ms)
    timer.unref?.()
    return timer
  },
  clearTimeout: (handle) => clearTimeout(handle as NodeJS.Timeout)
}

/** Restart delays after a crash: 1 s, 2 s, 4 s … up to a minute; a server up for a minute starts again at 1 s. */
export const RESTART_BASE_MS = 1000
export const RESTART_MAX_MS = 60_000
export const HEALTHY_MS = 60_000

/** A tool call that did not get an answer from the server (it stopped, timed out, or is not running). */
export class McpCallError extends Error {
  constructor(message: string) {
    super(message)
    this.name = 'McpCallError'
  }
}

export interface RunnerDeps {
  log: McpServerLog
  clientVersion: string
  /** The config with secrets and environment filled in (throws McpValueError for a missing one). */
  resolve(): ResolvedServer
  timers: McpTimers
  onChange(): void
}

/**
 * One configured server over its life in this process: starting → ready | failed, and after a crash
 * failed → starting again on a backoff timer. Every failure is kept (`error`) and logged.
 */
export class McpServerRunner {
  status: Exclude<McpServerStatus, 'disabled'> = 'stopped'
  error: McpServerProblem | undefined
  connection: McpConnection | null = null
  restarts = 0
  nextRestartAt: number | undefined
  /** Doubles the restart delay after each crash; reset by a healthy minute. */
  private backoff = 0
  private readyAt = 0
  private restartTimer: unknown = null
  /** Bumped by every connect and stop, so a connect that finishes after a stop is thrown away. */
  private generation = 0
  private settled: Promise<void> = Promise.resolve()
  /** Stops the start-up attempt in progress (its child is killed). */
  private connecting: AbortController | null = null

  constructor(readonly name: string, readonly config: McpServerConfig, private readonly deps: RunnerDeps) {}

  /** Starts the server unless it is starting, ready, or waiting for a restart. */
  start(): void {
    if (this.status === 'starting' || this.status === 'ready' || this.restartTimer !== null) return
    this.connect(false)
  }

  /** Resolves when the current start-up attempt has ended (at once when none is running). */
  whenSettled(): Promise<void> {
    return this.settled
  }

  /** Stops the server for good (a stdio child is killed) and cancels a pending restart. */
  async stop(reason = 'stopped'): Promise<void> {
    this.generation++
    this.cancelRestart()
    this.connecting?.abort()
    this.connecting = null
    const connection = this.connection
    this.connection = null
    if (this.status !== 'stopped') this.deps.log.note(`stopping (${reason})`)
    this.status = 'stopped'
    this.deps.onChange()
    if (!connection) return
    try {
      await connection.close()
    } catch (error) {
      this.deps.log.note(`closing failed: ${(error as Error).message}`)
    }
  }

  /** Connects again now (the user's Test), whatever state it was in, and waits for the outcome. */
  async reconnect(): Promise<void> {
    await this.stop('reconnecting')
    this.backoff = 0
    this.connect(false)
    await this.settled
  }

  async callTool(tool: string, args: Record<string, unknown>, signal?: AbortSignal): Promise<CallToolResult> {
    if (this.status === 'starting') await this.waitReady(signal)
    const connection = this.connection
    if (this.status !== 'ready' || !connection) throw new McpCallError(this.notRunningMessage())
    const seconds = Math.round(this.config.timeoutMs / 1000)
    try {
      return (await connection.client.callTool({ name: tool, arguments: args }, { timeout: this.config.timeoutMs, signal })) as CallToolResult
    } catch (error) {
      if (error instanceof SdkError && error.code === SdkErrorCode.RequestTimeout) {
        throw new McpCallError(`The MCP server "${this.name}" did not answer ${tool} within ${seconds} s (its timeoutMs); the call was abandoned.`)
      }
      if (connection !== this.connection || (error instanceof SdkError && error.code === SdkErrorCode.ConnectionClosed)) {
        throw new McpCallError(`The MCP server ${this.name} stopped during the call; it is being restarted.`)
      }
      throw error
    }
  }

  private async waitReady(signal?: AbortSignal): Promise<void> {
    let timer: unknown = null
    const limit = new Promise<void>((resolve) => (timer = this.deps.timers.setTimeout(resolve, this.config.timeoutMs)))
    const aborted = new Promise<void>((resolve) => signal?.addEventListener('abort', () => resolve(), { once: true }))
    await Promise.race([this.settled, limit, aborted])
    this.deps.timers.clearTimeout(timer)
  }

  private notRunningMessage(): string {
    if (this.status === 'starting') return `The MCP server "${this.name}" is still starting; try again in a moment.`
    const when = this.nextRestartAt ? ` It restarts in about ${Math.max(1, Math.round((this.nextRestartAt - this.deps.timers.now()) / 1000))} s.` : ''
    const why = this.error ? ` ${this.error.message}` : ''
    return `The MCP server "${this.name}" is not running.${why}${when}`
  }

  private connect(afterCrash: boolean): void {
    const generation = ++this.generation
    this.status = 'starting'
    this.error = undefined
    this.nextRestartAt = undefined
    this.deps.onChange()
    this.settled = this.attempt(generation, afterCrash)
  }

  private async attempt(generation: number, afterCrash: boolean): Promise<void> {
    const { log } = this.deps
    let resolved: ResolvedServer
    try {
      resolved = this.deps.resolve()
    } catch (error) {
      if (!(error instanceof McpValueError)) throw error
      return this.fail(generation, new McpConnectError(error.code, error.key, error.params as never), false)
    }
    log.setSecrets(resolved.secrets)
    log.note(`starting${afterCrash ? ` (restart ${this.restarts})` : ''}`)
    const connecting = new AbortController()
    this.connecting = connecting
    try {
      const connection = await connectServer({
        server: this.name,
        config: resolved.config,
        clientVersion: this.deps.clientVersion,
        log,
        signal: connecting.signal,
        onClosed: () => this.crashed(connection)
      })
      if (this.connecting === connecting) this.connecting = null
      if (generation !== this.generation) {
        await connection.close().catch(() => undefined)
        return
      }
      this.connection = connection
      this.status = 'ready'
      this.readyAt = this.deps.timers.now()
      log.note(`ready with ${connection.tools.length} tools, ${connection.resourceCount} resources, ${connection.promptCount} prompts (${connection.transport}${connection.pid ? `, pid ${connection.pid}` : ''})`)
      this.deps.onChange()
      // It exited between the handshake and now: the close came before this runner knew the connection.
      if (connection.closed) this.crashed(connection)
    } catch (error) {
      this.fail(generation, classifyConnectError(error, { server: this.name, config: resolved.config, log }, isRemoteServer(resolved.config) ? 'http' : 'stdio'), afterCrash)
    }
  }

  private fail(generation: number, error: McpConnectError, retry: boolean): void {
    if (generation !== this.generation) return
    this.status = 'failed'
    // A server may echo its token in an error page: the message reaches the faces.
    this.error = { code: error.code, message: this.deps.log.redact(error.message), key: error.key, params: this.redacted(error.params) }
    this.deps.log.note(`failed (${error.code}): ${error.message}`)
    if (retry) this.scheduleRestart()
    this.deps.onChange()
  }

  private redacted(params: Record<string, string | number>): Record<string, string | number> {
    return Object.fromEntries(Object.entries(params).map(([name, value]) => [name, typeof value === 'string' ? this.deps.log.redact(value) : value]))
  }

  /** The transport closed by itself: the server exited or the stream dropped. */
  private crashed(connection: McpConnection): void {
    if (connection !== this.connection) return
    this.connection = null
    this.generation++
    this.deps.log.flush()
    const tail = this.deps.log.stderrTail(4)
    const failure = tail ? new McpConnectError('crashed', 'mcp.crashed_saying', { server: this.name, tail }) : new McpConnectError('crashed', 'mcp.crashed', { server: this.name })
    this.status = 'failed'
    this.error = { code: 'crashed', message: failure.message, key: failure.key, params: failure.params }
    this.deps.log.note(`stopped unexpectedly`)
    // A server that ran for a healthy minute starts over at the shortest delay.
    if (this.deps.timers.now() - this.readyAt >= HEALTHY_MS) this.backoff = 0
    this.scheduleRestart()
    this.deps.onChange()
    // The closed client still owns the child's pipes: release them.
    void connection.close().catch(() => undefined)
  }

  private scheduleRestart(): void {
    const delay = Math.min(RESTART_BASE_MS * 2 ** this.backoff, RESTART_MAX_MS)
    this.backoff++
    this.nextRestartAt = this.deps.timers.now() + delay
    this.deps.log.note(`restarting in ${delay / 1000} s`)
    this.restartTimer = this.deps.timers.setTimeout(() => {
      this.restartTimer = null
      this.restarts++
      this.connect(true)
    }, delay)
  }

  private cancelRestart(): void {
    if (this.restartTimer !== null) this.deps.timers.clearTimeout(this.restartTimer)
    this.restartTimer = null
    this.nextRestartAt = undefined
  }
}

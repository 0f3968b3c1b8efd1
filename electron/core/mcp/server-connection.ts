import { Client, SdkError, SdkErrorCode, SdkHttpError, SSEClientTransport, SseError, StreamableHTTPClientTransport, UnauthorizedError, type Tool } from '@modelcontextprotocol/client'
import { StdioClientTransport, getDefaultEnvironment } from '@modelcontextprotocol/client/stdio'
import type { ErrorKey, ErrorParamsByKey } from '../../../shared/error-keys'
import { KeyedError } from '../../../shared/keyed-error'
import type { McpErrorCode, McpRemoteServerConfig, McpServerConfig, McpStdioServerConfig } from '../../../shared/mcp'
import { isRemoteServer } from '../../../shared/mcp'
import type { McpServerLog } from './server-log'

type McpConnectKey = Extract<ErrorKey, `mcp.${string}`>

/** Why a server could not start or stopped: a code the faces word briefly, and a key with its figures for the whole story. */
export class McpConnectError<K extends McpConnectKey = McpConnectKey> extends KeyedError<K> {
  constructor(
    readonly code: McpErrorCode,
    key: K,
    params: ErrorParamsByKey[K]
  ) {
    super(key, params)
    this.name = 'McpConnectError'
  }
}

/** A server that answered the handshake: its tools and how many resources and prompts it offers. */
export interface McpConnection {
  readonly client: Client
  readonly transport: 'stdio' | 'http' | 'sse'
  /** The child's process id (stdio). */
  readonly pid: number | null
  readonly tools: Tool[]
  readonly resourceCount: number
  readonly promptCount: number
  readonly serverVersion?: { name: string; version: string }
  /** The transport has closed (by itself or through `close()`). */
  readonly closed: boolean
  /** Closes the connection (a stdio child is stopped); the `onClosed` callback is not called for it. */
  close(): Promise<void>
}

export interface ConnectOptions {
  server: string
  config: McpServerConfig
  clientVersion: string
  log: McpServerLog
  /** The transport closed without `close()` being called (the server exited or the stream dropped). */
  onClosed(): void
  /** Gives up the attempt: the transport is closed (a stdio child is killed) and connecting fails. */
  signal?: AbortSignal
}

/**
 * Connects to one server within its `timeoutMs`: spawns a stdio server (stderr to the log), or speaks
 * Streamable HTTP to a remote one, falling back to SSE when the server answers the first POST with a
 * 4xx other than 401/403 (an SSE-only server); `type: "sse"` goes to SSE at once. Then lists every tool
 * and counts resources and prompts (a failing count is logged, not fatal).
 */
export async function connectServer(options: ConnectOptions): Promise<McpConnection> {
  const { config, log } = options
  const kind: McpConnection['transport'] = !isRemoteServer(config) ? 'stdio' : config.type === 'sse' ? 'sse' : 'http'
  try {
    if (!isRemoteServer(config)) return await handshake(options, stdioTransport(config, log), 'stdio')
    if (config.type === 'sse') return await handshake(options, sseTransport(config), 'sse')
    try {
      return await handshake(options, new StreamableHTTPClientTransport(new URL(config.url), { requestInit: { headers: config.headers } }), 'http')
    } catch (error) {
      const status = httpStatus(error)
      if (status === undefined || status < 400 || status >= 500 || status === 401 || status === 403) throw error
      log.note(`Streamable HTTP was refused (HTTP ${status}); trying the older SSE transport`)
      return await handshake(options, sseTransport(config), 'sse')
    }
  } catch (error) {
    throw classifyConnectError(error, options, kind)
  }
}

function stdioTransport(config: McpStdioServerConfig, log: McpServerLog): StdioClientTransport {
  const transport = new StdioClientTransport({
    command: config.command,
    args: config.args,
    env: { ...getDefaultEnvironment(), ...config.env },
    cwd: config.cwd,
    stderr: 'pipe'
  })
  transport.stderr?.on('data', (chunk: Buffer | string) => log.stderr(chunk.toString()))
  return transport
}

/** The transport sends `headers` (an API key) on the stream's GET as on every POST. */
function sseTransport(config: McpRemoteServerConfig): SSEClientTransport {
  return new SSEClientTransport(new URL(config.url), { requestInit: { headers: config.headers } })
}

async function handshake(options: ConnectOptions, transport: StdioClientTransport | StreamableHTTPClientTransport | SSEClientTransport, kind: McpConnection['transport']): Promise<McpConnection> {
  const { config, log } = options
  const client = new Client({ name: 'cairn', version: options.clientVersion })
  let closing = false
  let closed = false
  let ready = false
  client.onerror = (error) => log.note(`protocol error: ${error.message}`)
  client.onclose = () => {
    closed = true
    if (ready && !closing) options.onClosed()
  }
  const request = { timeout: config.timeoutMs }
  const abandon = () => void client.close().catch(() => undefined)
  options.signal?.addEventListener('abort', abandon, { once: true })
  try {
    if (options.signal?.aborted) throw new Error('the connection attempt was stopped')
    await client.connect(transport, request)
  } catch (error) {
    options.signal?.removeEventListener('abort', abandon)
    closing = true
    await client.close().catch(() => undefined)
    log.flush()
    throw error
  }
  const capabilities = client.getServerCapabilities() ?? {}
  const count = async (what: string, list: () => Promise<unknown[]>): Promise<number> => {
    try {
      return (await list()).length
    } catch (error) {
      log.note(`listing ${what} failed (the server still works for tools): ${(error as Error).message}`)
      return 0
    }
  }
  let tools: Tool[]
  try {
    tools = capabilities.tools ? (await client.listTools(undefined, { ...request, cacheMode: 'bypass' })).tools : []
  } catch (error) {
    closing = true
    await client.close().catch(() => undefined)
    throw error
  }
  const resourceCount = capabilities.resources ? await count('resources', async () => (await client.listResources(undefined, { ...request, cacheMode: 'bypass' })).resources) : 0
  const promptCount = capabilities.prompts ? await count('prompts', async () => (await client.listPrompts(undefined, { ...request, cacheMode: 'bypass' })).prompts) : 0
  options.signal?.removeEventListener('abort', abandon)
  const version = client.getServerVersion()
  ready = true
  return {
    client,
    transport: kind,
    pid: transport instanceof StdioClientTransport ? transport.pid : null,
    tools,
    resourceCount,
    promptCount,
    serverVersion: version ? { name: version.name, version: version.version } : undefined,
    get closed() {
      return closed
    },
    close: async () => {
      closing = true
      await client.close()
    }
  }
}

function httpStatus(error: unknown): number | undefined {
  if (error instanceof SdkHttpError) return error.status
  if (error instanceof SseError) return error.code
  return undefined
}

/** Turns whatever the SDK or the OS threw into a code and a message that says what to check. */
export function classifyConnectError(error: unknown, options: Pick<ConnectOptions, 'server' | 'config' | 'log'>, kind: McpConnection['transport']): McpConnectError {
  if (error instanceof McpConnectError) return error
  const { server, config, log } = options
  const message = error instanceof Error ? error.message : String(error)
  const errno = (error as NodeJS.ErrnoException | undefined)?.code
  if (kind === 'stdio' && typeof errno === 'string' && ['ENOENT', 'EACCES', 'ENOTDIR', 'EPERM'].includes(errno)) {
    const command = isRemoteServer(config) ? '' : config.command
    if (errno === 'ENOENT') return new McpConnectError('spawn_failed', 'mcp.command_not_found', { server, command, problem: message })
    return new McpConnectError('spawn_failed', 'mcp.command_not_runnable', { server, command, errno, problem: message })
  }
  const status = httpStatus(error)
  if (error instanceof UnauthorizedError || status === 401 || status === 403) {
    return new McpConnectError('unauthorized', 'mcp.unauthorized', { server, status: status ?? 401, problem: message })
  }
  if (error instanceof SdkError && error.code === SdkErrorCode.RequestTimeout) {
    return new McpConnectError('timeout', 'mcp.start_timeout', { server, seconds: Math.round(config.timeoutMs / 1000), timeoutMs: config.timeoutMs })
  }
  if (error instanceof SdkError && error.code === SdkErrorCode.ConnectionClosed && kind === 'stdio') {
    const tail = log.stderrTail()
    return tail ? new McpConnectError('connect_failed', 'mcp.exited_starting', { server, tail }) : new McpConnectError('connect_failed', 'mcp.exited_starting_silently', { server })
  }
  if (status) return new McpConnectError('connect_failed', 'mcp.connect_failed_http', { server, problem: message, status })
  return new McpConnectError('connect_failed', 'mcp.connect_failed', { server, problem: message })
}

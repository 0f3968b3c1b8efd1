import { spawn, type ChildProcess } from 'node:child_process'
import { mkdtempSync, rmSync } from 'node:fs'
import { createServer as createHttpServer, request as httpRequest } from 'node:http'
import { createServer, connect } from 'node:net'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { mcpSettingsSchema, type McpSettings } from '../../../shared/mcp'
import { McpManager, type McpManagerOptions } from '../../../electron/core/mcp/mcp-manager'
import type { McpTimers } from '../../../electron/core/mcp/server-runner'
import type { ApprovalRequest } from '../../../shared/agent-events'
import { newTurnState, type ToolContext, type ToolDef } from '../../../electron/core/tools/types'

export const EVERYTHING = resolve('node_modules/@modelcontextprotocol/server-everything/dist/index.js')
export const FILESYSTEM = resolve('node_modules/@modelcontextprotocol/server-filesystem/dist/index.js')
export const MEMORY = resolve('node_modules/@modelcontextprotocol/server-memory/dist/index.js')
export const SEQUENTIAL_THINKING = resolve('node_modules/@modelcontextprotocol/server-sequential-thinking/dist/index.js')

/** test/core/mcp/hostile-server.mjs: a server misbehaving as `mode` says (names, many, silent, garbage, flood). */
export const HOSTILE = resolve('test/core/mcp/hostile-server.mjs')

export function hostileStdio(mode: string, extra: Record<string, unknown> = {}): Record<string, unknown> {
  return { command: process.execPath, args: [HOSTILE], env: { HOSTILE_MODE: mode }, ...extra }
}

export function everythingStdio(extra: Record<string, unknown> = {}): Record<string, unknown> {
  return { command: process.execPath, args: [EVERYTHING, 'stdio'], ...extra }
}

/** Restart delays shrunk a thousandfold: crash recovery runs at once, with the real code path. */
export const fastTimers: McpTimers = {
  now: () => Date.now(),
  setTimeout: (run, ms) => setTimeout(run, Math.ceil(ms / 1000)),
  clearTimeout: (handle) => clearTimeout(handle as NodeJS.Timeout)
}

export interface ManagerRig {
  manager: McpManager
  logDir: string
  servers: Record<string, unknown>
  close(): Promise<void>
}

export function managerRig(servers: Record<string, unknown>, options: Omit<Partial<McpManagerOptions>, 'settings' | 'servers' | 'logDir'> & { settings?: Partial<McpSettings> } = {}): ManagerRig {
  const logDir = mkdtempSync(join(tmpdir(), 'cairn-mcp-logs-'))
  const settings = mcpSettingsSchema.parse(options.settings ?? {})
  const manager = new McpManager({ clientVersion: 'test', ...options, servers: () => servers, settings: () => settings, logDir })
  return {
    manager,
    logDir,
    servers,
    async close() {
      await manager.close()
      rmSync(logDir, { recursive: true, force: true })
    }
  }
}

const settledRigs: ManagerRig[] = []

/** A rig whose servers were started and have settled (each ready or failed); {@link closeSettledRigs} after each test. */
export async function settledRig(...args: Parameters<typeof managerRig>): Promise<ManagerRig> {
  const rig = managerRig(...args)
  settledRigs.push(rig)
  rig.manager.start()
  await rig.manager.whenSettled(30_000)
  return rig
}

export async function closeSettledRigs(): Promise<void> {
  await Promise.all(settledRigs.splice(0).map((rig) => rig.close()))
}

export async function freePort(): Promise<number> {
  return new Promise((done, fail) => {
    const server = createServer()
    server.once('error', fail)
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number }
      server.close(() => done(port))
    })
  })
}

async function portOpen(port: number): Promise<boolean> {
  return new Promise((done) => {
    const socket = connect(port, '127.0.0.1')
    socket.once('connect', () => {
      socket.destroy()
      done(true)
    })
    socket.once('error', () => done(false))
  })
}

/** The everything server over HTTP (`streamableHttp` or `sse`) as a child on a free port, once it listens. */
export async function startEverythingHttp(mode: 'streamableHttp' | 'sse' = 'streamableHttp'): Promise<{ port: number; child: ChildProcess; close(): Promise<void> }> {
  const port = await freePort()
  const child = spawn(process.execPath, [EVERYTHING, mode], { env: { ...process.env, PORT: String(port) }, stdio: ['ignore', 'ignore', 'pipe'] })
  let stderr = ''
  child.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()))
  const deadline = Date.now() + 20_000
  while (!(await portOpen(port))) {
    if (child.exitCode !== null || Date.now() > deadline) throw new Error(`the everything server did not listen on ${port}: ${stderr}`)
    await new Promise((r) => setTimeout(r, 50))
  }
  return {
    port,
    child,
    close: () =>
      new Promise<void>((done) => {
        if (child.exitCode !== null) return done()
        child.once('exit', () => done())
        child.kill()
      })
  }
}

export function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0)
    return true
  } catch {
    return false
  }
}

/** A tool context whose user allows every request (recorded in `asked`). */
export function allowAll(asked: ApprovalRequest[] = []): ToolContext {
  return {
    write: { source: 'agent', sessionId: null },
    turn: newTurnState(),
    approve: async (request) => {
      asked.push(request)
      return true
    }
  }
}

export function toolNamed(tools: ToolDef[], name: string): ToolDef {
  const found = tools.find((t) => t.name === name)
  if (!found) throw new Error(`no tool ${name} among ${tools.map((t) => t.name).join(', ')}`)
  return found
}

/** A proxy in front of `port` that answers 401 unless the request carries `Authorization: <authorization>`. */
export async function startAuthProxy(port: number, authorization: string): Promise<{ port: number; close(): Promise<void> }> {
  const proxy = createHttpServer((req, res) => {
    if (req.headers.authorization !== authorization) {
      res.writeHead(401, { 'content-type': 'text/plain' }).end('missing or wrong token')
      return
    }
    const upstream = httpRequest({ host: '127.0.0.1', port, path: req.url, method: req.method, headers: req.headers }, (answer) => {
      res.writeHead(answer.statusCode ?? 502, answer.headers)
      answer.pipe(res)
    })
    upstream.on('error', (error) => res.writeHead(502).end(error.message))
    req.pipe(upstream)
  })
  await new Promise<void>((done) => proxy.listen(0, '127.0.0.1', done))
  return {
    port: (proxy.address() as { port: number }).port,
    close: () =>
      new Promise<void>((done) => {
        proxy.close(() => done())
        proxy.closeAllConnections()
      })
  }
}

import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, describe, expect, it, vi } from 'vitest'
import type { ApprovalRequest } from '../../../shared/agent-events'
import { runTool } from '../../../electron/core/tools/run-tool'
import { FILESYSTEM, allowAll, everythingStdio, managerRig, startAuthProxy, startEverythingHttp, toolNamed as tool, type ManagerRig } from './mcp-fixture'

const rigs: ManagerRig[] = []
const cleanups: Array<() => Promise<void> | void> = []
afterEach(async () => {
  await Promise.all(rigs.splice(0).map((rig) => rig.close()))
  for (const cleanup of cleanups.splice(0)) await cleanup()
})

function rig(...args: Parameters<typeof managerRig>): ManagerRig {
  const made = managerRig(...args)
  rigs.push(made)
  return made
}

describe('McpManager with the reference servers', () => {
  it('connects to server-everything over stdio: tools under exposed names, resources and prompts counted, echo called after approval', async () => {
    const { manager } = rig({ everything: everythingStdio() })
    expect(manager.list()[0]).toMatchObject({ name: 'everything', status: 'stopped', transport: 'stdio' })
    manager.start()
    await manager.whenSettled(30_000)
    const [info] = manager.list()
    expect(info.error).toBeUndefined()
    expect(info).toMatchObject({ status: 'ready', transport: 'stdio', restarts: 0 })
    expect(info.tools.map((t) => t.exposedName)).toContain('mcp__everything__echo')
    expect(info.tools.find((t) => t.name === 'trigger-long-running-operation')?.exposedName).toBe('mcp__everything__trigger-long-running-operation')
    expect(info.resourceCount).toBeGreaterThan(0)
    expect(info.promptCount).toBeGreaterThan(0)
    expect(info.serverVersion?.name).toContain('everything')
    expect(info.logTail).toMatch(/ready with \d+ tools/)

    const tools = manager.conversationTools()
    const echo = tool(tools, 'mcp__everything__echo')
    expect(echo.description).toMatch(/^\[MCP server everything\] Echoes back/)
    expect(echo.parameters).toMatchObject({ type: 'object', properties: { message: { type: 'string' } }, required: ['message'] })
    expect(echo.parameters).not.toHaveProperty('$schema')
    const asked: ApprovalRequest[] = []
    await expect(runTool(echo, JSON.stringify({ message: 'hello cairn' }), allowAll(asked))).resolves.toBe('Echo: hello cairn')
    expect(asked).toEqual([
      expect.objectContaining({ kind: 'mcp', tool: 'mcp__everything__echo', server: 'everything', mcpTool: 'echo', scopes: ['once', 'session', 'tool'], preview: JSON.stringify({ message: 'hello cairn' }, null, 2) })
    ])

    // Bad arguments reach the server, whose validation error comes back readable.
    const bad = (await runTool(echo, { nope: 1 }, allowAll())) as { success: boolean; error: string }
    expect(bad.success).toBe(false)
    expect(bad.error).toMatch(/message/)

    const resources = await manager.listResources()
    expect(resources.length).toBe(info.resourceCount)
    const text = resources.find((r) => r.mimeType?.startsWith('text/'))
    expect(text).toBeDefined()
    expect((await manager.readResource('everything', text!.uri)).text.length).toBeGreaterThan(0)
    const prompts = await manager.listPrompts()
    expect(prompts.map((p) => p.name)).toContain('simple-prompt')
    expect((await manager.getPrompt('everything', 'simple-prompt', {})).text.length).toBeGreaterThan(0)
  })

  it('speaks Streamable HTTP to a remote server, and falls back to SSE for a server that only has that', async () => {
    const http = await startEverythingHttp('streamableHttp')
    cleanups.push(() => http.close())
    const sse = await startEverythingHttp('sse')
    cleanups.push(() => sse.close())
    const { manager } = rig({
      remote: { type: 'http', url: `http://127.0.0.1:${http.port}/mcp` },
      legacy: { type: 'http', url: `http://127.0.0.1:${sse.port}/sse` }
    })
    manager.start()
    await manager.whenSettled(30_000)
    const [remote, legacy] = manager.list()
    expect(remote).toMatchObject({ status: 'ready', transport: 'http' })
    expect(remote.promptCount).toBeGreaterThan(0)
    expect(legacy.error).toBeUndefined()
    expect(legacy).toMatchObject({ status: 'ready', transport: 'sse' })
    expect(manager.readLog('legacy')).toMatch(/trying the older SSE transport/)
    const tools = manager.conversationTools()
    await expect(runTool(tool(tools, 'mcp__remote__echo'), { message: 'over http' }, allowAll())).resolves.toBe('Echo: over http')
    await expect(runTool(tool(tools, 'mcp__legacy__echo'), { message: 'over sse' }, allowAll())).resolves.toBe('Echo: over sse')
  })

  it('sends headers with their secrets to a remote server, and reports a refused token as unauthorized', async () => {
    const http = await startEverythingHttp('streamableHttp')
    cleanups.push(() => http.close())
    const proxy = await startAuthProxy(http.port, 'Bearer tok-7f3a9c21')
    cleanups.push(() => proxy.close())
    const url = `http://127.0.0.1:${proxy.port}/mcp`
    const { manager } = rig(
      {
        keyed: { type: 'http', url, headers: { Authorization: 'Bearer ${secret:api}' } },
        wrong: { type: 'http', url, headers: { Authorization: 'Bearer ${secret:old}' } }
      },
      { resolveSecret: (name) => ({ api: 'tok-7f3a9c21', old: 'tok-expired-0000' })[name] ?? null }
    )
    manager.start()
    await manager.whenSettled(30_000)
    const [keyed, wrong] = manager.list()
    expect(keyed.error).toBeUndefined()
    expect(keyed.status).toBe('ready')
    expect(wrong).toMatchObject({ status: 'failed', error: { code: 'unauthorized' } })
    expect(wrong.error?.message).toMatch(/HTTP 401/)
    await expect(runTool(tool(manager.conversationTools(), 'mcp__keyed__echo'), { message: 'with a key' }, allowAll())).resolves.toBe('Echo: with a key')
    for (const name of ['keyed', 'wrong']) expect(manager.readLog(name)).not.toMatch(/tok-7f3a9c21|tok-expired-0000/)
  })

  it('reads a file through server-filesystem, and drops the tools the user disabled', async () => {
    const folder = mkdtempSync(join(tmpdir(), 'cairn-mcp-fs-'))
    cleanups.push(() => rmSync(folder, { recursive: true, force: true }))
    writeFileSync(join(folder, 'notes.txt'), 'the launch code is 4711\n')
    const { manager } = rig({ files: { command: process.execPath, args: [FILESYSTEM, folder], disabledTools: ['write_file'] } })
    manager.start()
    await manager.whenSettled(30_000)
    const [info] = manager.list()
    expect(info.status).toBe('ready')
    expect(info.tools.find((t) => t.name === 'write_file')).toMatchObject({ enabled: false })
    const tools = manager.conversationTools()
    expect(tools.map((t) => t.name)).not.toContain('mcp__files__write_file')
    const result = await runTool(tool(tools, 'mcp__files__read_text_file'), { path: join(folder, 'notes.txt') }, allowAll())
    expect(result).toContain('the launch code is 4711')
  })

  it('reports a command that does not exist as spawn_failed, in the info and the log', async () => {
    const { manager } = rig({ ghost: { command: 'cairn-no-such-mcp-server-cmd' } })
    manager.start()
    await manager.whenSettled(15_000)
    const [info] = manager.list()
    expect(info.status).toBe('failed')
    expect(info.error?.code).toBe('spawn_failed')
    expect(info.error?.message).toContain('cairn-no-such-mcp-server-cmd')
    expect(info.error?.message).toMatch(/not found/)
    expect(manager.readLog('ghost')).toContain('spawn_failed')
    expect(info.logTail).toContain('cairn-no-such-mcp-server-cmd')
    expect(manager.conversationTools()).toEqual([])
  })

  it('shows what a server that exits at once wrote to stderr', async () => {
    const { manager } = rig({ broken: { command: process.execPath, args: ['-e', 'console.error("fatal: the API token is invalid"); process.exit(3)'] } })
    manager.start()
    await manager.whenSettled(15_000)
    const [info] = manager.list()
    expect(info.status).toBe('failed')
    expect(info.error?.code).toBe('connect_failed')
    expect(info.error?.message).toMatch(/exited while starting/)
    await vi.waitFor(() => expect(manager.list()[0].logTail).toContain('fatal: the API token is invalid'), { timeout: 5000 })
    expect(manager.readLog('broken')).toContain('fatal: the API token is invalid')
  })

  it('names an invalid server config without touching the others', async () => {
    const { manager } = rig({ bad: { command: '' }, everything: everythingStdio({ enabled: false }) })
    manager.start()
    await manager.whenSettled(5_000)
    const [bad, off] = manager.list()
    expect(bad).toMatchObject({ status: 'failed', error: { code: 'config_invalid' } })
    expect(bad.error?.message).toMatch(/command/)
    expect(off).toMatchObject({ status: 'disabled', enabled: false })
  })
})

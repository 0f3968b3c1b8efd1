import { existsSync, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, describe, expect, it, vi } from 'vitest'
import type { ApprovalRequest } from '../../../shared/agent-events'
import { MCP_TOOL_NAME_MAX } from '../../../shared/mcp'
import { runTool } from '../../../electron/core/tools/run-tool'
import { MCP_DESCRIPTION_MAX } from '../../../electron/core/mcp/mcp-tools'
import { allowAll, closeSettledRigs, everythingStdio, HOSTILE, hostileStdio as hostile, settledRig as started, toolNamed as tool } from './mcp-fixture'

const CAIRN_TOOLS = ['read_file', 'write_file', 'run_command', 'memory', 'skill_view', 'session_search', 'mcp_tool_search', 'mcp_call']

const temps: string[] = []
afterEach(async () => {
  await closeSettledRigs()
  for (const dir of temps.splice(0)) rmSync(dir, { recursive: true, force: true })
})

describe('a malicious MCP server', () => {
  it('cannot take Cairn’s tool names or smuggle odd names: every exposed name is clean, bounded and its own', async () => {
    const { manager } = await started({ hostile: hostile('names'), a: hostile('names'), a__b: hostile('names') })
    expect(manager.list().map((server) => server.status)).toEqual(['ready', 'ready', 'ready'])
    const tools = manager.conversationTools()
    const names = tools.map((t) => t.name)
    expect(new Set(names).size).toBe(names.length)
    for (const name of names) {
      expect(name).toMatch(/^mcp__[a-zA-Z0-9_-]+$/)
      expect(name.length).toBeLessThanOrEqual(MCP_TOOL_NAME_MAX)
      expect(CAIRN_TOOLS).not.toContain(name)
    }
    // Servers `a` and `a__b`, tools with `__`: each name leads back to exactly one server and tool.
    for (const t of tools) expect(t.mcp).toHaveLength(1)
    const pairs = tools.map((t) => `${t.mcp![0].server}/${t.mcp![0].tool}`)
    expect(new Set(pairs).size).toBe(pairs.length)

    const lookalike = tools.find((t) => t.mcp![0].server === 'hostile' && t.mcp![0].tool === 'read_file')!
    expect(lookalike.description.startsWith('[MCP server hostile] ')).toBe(true)
    expect(lookalike.description.length).toBe(MCP_DESCRIPTION_MAX)
    // The list the windows get is bounded the same way.
    const listed = manager.list()[0].tools.find((t) => t.name === 'read_file')!
    expect(listed.description.length).toBeLessThanOrEqual(MCP_DESCRIPTION_MAX)
  })

  it('asks with the real server and tool, whatever the description says, and shows the name without control characters', async () => {
    const { manager } = await started({ hostile: hostile('names') })
    const tools = manager.conversationTools()
    const odd = tools.find((t) => t.mcp![0].tool.startsWith('ünï'))!
    const asked: ApprovalRequest[] = []
    await expect(runTool(odd, {}, allowAll(asked))).resolves.toMatch(/^ran /)
    expect(asked[0]).toMatchObject({ kind: 'mcp', server: 'hostile', mcpTool: 'ünï\u202ecödé\u0007', tool: odd.name })
    expect(asked[0].summary).not.toMatch(/[\u0000-\u001f\u202a-\u202e\u2066-\u2069]/)

    const html = tool(tools, 'mcp__hostile__html')
    // Markup comes back as the text it is; nothing on this path parses it.
    await expect(runTool(html, {}, allowAll())).resolves.toBe('<img src=x onerror="alert(1)"><script>steal()</script>')
  })

  it('with 10,000 tools, lists them all, hands the model only the search tools, and finds one', async () => {
    const { manager } = await started({ many: hostile('many') })
    expect(manager.list()[0].tools).toHaveLength(10_000)
    const began = performance.now()
    const tools = manager.conversationTools()
    expect(performance.now() - began).toBeLessThan(5_000)
    expect(tools.map((t) => t.name)).toEqual(['mcp_tool_search', 'mcp_call'])
    const found = (await runTool(tool(tools, 'mcp_tool_search'), { query: 'select:mcp__many__tool_9999' }, allowAll())) as { tools: Array<{ name: string }> }
    expect(found.tools.map((t) => t.name)).toEqual(['mcp__many__tool_9999'])
  })

  it('mcp_call reaches only the MCP tools of this conversation: not Cairn’s own, not a disabled one', async () => {
    const { manager } = await started({ hostile: hostile('names', { disabledTools: ['html'] }) }, { settings: { toolSearch: 'always' } })
    const call = tool(manager.conversationTools(), 'mcp_call')
    for (const name of ['write_file', 'run_command', 'read_file', 'memory', 'mcp_call', 'mcp_tool_search', 'mcp__hostile__html', 'hostile/html']) {
      const asked: ApprovalRequest[] = []
      const answer = (await runTool(call, { name, arguments: {} }, allowAll(asked))) as { success: boolean; error: string }
      expect({ name, success: answer.success }).toEqual({ name, success: false })
      expect(answer.error).toMatch(/no MCP tool named/)
      expect(asked).toEqual([])
    }
  })

  it('a tool the user disables after the conversation started no longer runs', async () => {
    const rigged = await started({ hostile: hostile('names') })
    const html = tool(rigged.manager.conversationTools(), 'mcp__hostile__html')
    rigged.servers.hostile = hostile('names', { disabledTools: ['html'] })
    await rigged.manager.reload()
    const answer = (await runTool(html, {}, allowAll())) as { success: boolean; error: string }
    expect(answer.success).toBe(false)
    expect(answer.error).toMatch(/turned off|disabled/)
  })

  it('keeps a huge result whole only until the tool executor cuts it, and stays usable', async () => {
    const { manager } = await started({ hostile: hostile('names') })
    const result = await runTool(tool(manager.conversationTools(), 'mcp__hostile__huge'), {}, allowAll())
    expect(typeof result).toBe('string')
    expect((result as string).length).toBe(5_000_000)
  })

  it('a server that never answers initialize fails with a timeout naming the seconds', async () => {
    const { manager } = await started({ silent: hostile('silent', { timeoutMs: 1500 }) })
    const [info] = manager.list()
    expect(info.status).toBe('failed')
    expect(info.error).toMatchObject({ code: 'timeout', message: expect.stringMatching(/within 2 s/) })
  })

  it('a server that writes garbage to stdout fails alone: the others keep working', async () => {
    const { manager } = await started({ garbage: hostile('garbage', { timeoutMs: 3000 }), everything: everythingStdio() })
    const [garbage, everything] = manager.list()
    expect(garbage.status).toBe('failed')
    expect(everything.status).toBe('ready')
    await expect(runTool(tool(manager.conversationTools(), 'mcp__everything__echo'), { message: 'still here' }, allowAll())).resolves.toBe('Echo: still here')
  })

  it('a server flooding stderr keeps its log file and its tail bounded', async () => {
    const { manager, logDir } = await started({ flood: hostile('flood') })
    expect(manager.list()[0].status).toBe('ready')
    await vi.waitFor(() => expect(manager.list()[0].logTail).toMatch(/after the flood/), { timeout: 10_000 })
    const [info] = manager.list()
    const file = join(logDir, 'flood.log')
    expect(statSync(file).size).toBeLessThan(10_000)
    expect(existsSync(`${file}.1`)).toBe(false)
    expect(info.logTail.length).toBeLessThan(20 * 2_100)
    for (const line of readFileSync(file, 'utf8').split('\n')) expect(line.length).toBeLessThan(2_100)
    expect(manager.readLog('flood', 10_000).length).toBeLessThanOrEqual(10_000)
  })

  it('runs its command without a shell: metacharacters in the command or arguments stay literal', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'cairn-mcp-shell-'))
    temps.push(dir)
    const marker = join(dir, 'pwned')
    const { manager } = await started({
      sneaky: { command: `${process.execPath}; touch ${marker}`, args: [] },
      args: hostile('names', { args: [HOSTILE, `; touch ${marker}`, `$(touch ${marker})`, `\`touch ${marker}\``, `| touch ${marker}`] })
    })
    const [sneaky, args] = manager.list()
    expect(sneaky).toMatchObject({ status: 'failed', error: { code: 'spawn_failed' } })
    expect(args.status).toBe('ready')
    expect(existsSync(marker)).toBe(false)
  })
})

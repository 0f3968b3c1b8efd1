import { existsSync, mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { startScriptedServer, type ScriptedServer } from '../scripted-provider'
import { runCairn } from '../helpers/run-cli'
import { everythingStdio } from '../core/mcp/mcp-fixture'

let home: string
let server: ScriptedServer

beforeEach(async () => {
  home = mkdtempSync(join(tmpdir(), 'cairn-chat-mcp-'))
  server = await startScriptedServer({
    strict: true,
    respond: (request) => {
      const last = request.body.messages.at(-1) as { role: string; content: string }
      return last.role === 'tool' ? { text: `Server said: ${last.content}` } : undefined
    }
  })
})
afterEach(async () => {
  await server.close()
})

function chat(args: string[]) {
  return runCairn(['--home', home, 'chat', ...args], { cwd: home, env: { CAIRN_BASE_URL: server.url, CAIRN_MODEL: 'scripted', CAIRN_API_KEY: 'sk-test' } })
}

describe('cairn chat with MCP servers configured', () => {
  it('offers their tools, runs one (approved with --yes), names a server that failed, and exits', async () => {
    writeFileSync(join(home, 'config.json'), JSON.stringify({ mcpServers: { everything: everythingStdio(), ghost: { command: 'cairn-no-such-mcp-cmd' } } }))
    server.enqueue({ toolCalls: [{ name: 'mcp__everything__echo', arguments: { message: 'from the cli' } }] })
    const run = await chat(['echo it', '--yes'])
    expect(run.stderr).toMatch(/MCP server "ghost" is not available: .*cairn-no-such-mcp-cmd/)
    expect(run.code).toBe(0)
    expect(run.stdout).toContain('Server said: Echo: from the cli')
    const tools = (server.chatRequests()[0].body.tools ?? []) as Array<{ function: { name: string } }>
    expect(tools.map((t) => t.function.name)).toContain('mcp__everything__echo')
  })

  it('starts no server when none is enabled', async () => {
    writeFileSync(join(home, 'config.json'), JSON.stringify({ mcpServers: { everything: everythingStdio({ enabled: false }) } }))
    server.enqueue({ text: 'plain' })
    const run = await chat(['hi'])
    expect(run.code).toBe(0)
    const tools = (server.chatRequests()[0].body.tools ?? []) as Array<{ function: { name: string } }>
    expect(tools.some((t) => t.function.name.startsWith('mcp__'))).toBe(false)
    expect(existsSync(join(home, 'logs', 'mcp'))).toBe(false)
  })

  it('refuses a missing --attach file before starting any server', async () => {
    writeFileSync(join(home, 'config.json'), JSON.stringify({ mcpServers: { everything: everythingStdio() } }))
    const run = await chat(['summarise it', '--attach', 'no-such-file.pdf'])
    expect(run.code).toBe(1)
    expect(run.stderr).toMatch(/no-such-file\.pdf/)
    expect(existsSync(join(home, 'logs', 'mcp'))).toBe(false)
    expect(server.chatRequests()).toEqual([])
  })
})

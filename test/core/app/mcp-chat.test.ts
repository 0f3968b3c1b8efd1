import { execFileSync } from 'node:child_process'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { appFixture, type AppFixture } from '../../helpers/app-fixture'
import { everythingStdio, isAlive } from '../mcp/mcp-fixture'

let fx: AppFixture
const SILENT_MARK = 'cairn-test-silent-mcp-server'

/** This test process's children whose command line holds `mark`. */
function childrenWith(mark: string): string[] {
  const lines = execFileSync('ps', ['-o', 'pid=,args=', '--ppid', String(process.pid)], { encoding: 'utf8' }).split('\n')
  return lines.filter((line) => line.includes(mark))
}
afterEach(async () => {
  await fx?.close()
})

function toolNames(requestIndex: number): string[] {
  const tools = (fx.server.chatRequests()[requestIndex].body.tools ?? []) as Array<{ function: { name: string } }>
  return tools.map((tool) => tool.function.name)
}

function systemPrompt(requestIndex: number): string {
  return (fx.server.chatRequests()[requestIndex].body.messages[0] as { content: string }).content
}

async function send(sessionId: string | null, text: string): Promise<string> {
  fx.server.enqueue({ text: `answer to ${text}` })
  const started = await fx.ok('chat.send', { sessionId, text })
  await fx.waitFor('chat.event', (event) => event.type === 'turn_finished' && event.turnId === started.turnId, 30_000)
  return started.sessionId
}

describe('MCP tools in the app', () => {
  it('the first conversation starts the servers and waits at most startWaitMs: a server that never answers does not hold chat up', async () => {
    fx = await appFixture({
      config: {
        mcp: { startWaitMs: 1500 },
        // Reads stdin and never answers: stays "starting" until its own timeout.
        mcpServers: { everything: everythingStdio(), silent: { command: process.execPath, args: ['-e', 'process.stdin.resume()', SILENT_MARK] } }
      }
    })
    expect(fx.app.mcp.list().map((s) => s.status)).toEqual(['stopped', 'stopped'])
    const begun = Date.now()
    await send(null, 'hello')
    expect(Date.now() - begun).toBeLessThan(10_000)
    expect(toolNames(0)).toContain('mcp__everything__echo')
    expect(toolNames(0).some((name) => name.startsWith('mcp__silent__'))).toBe(false)
    const [everything, silent] = fx.app.mcp.list()
    expect(everything.status).toBe('ready')
    expect(silent.status).toBe('starting')
    expect(childrenWith(SILENT_MARK)).toHaveLength(1)
    const pid = fx.app.mcp.pidOf('everything')!
    // Quitting stops both: the ready one and the one still starting.
    await fx.app.close()
    fx.app.close = async () => undefined // closed already; afterEach closes the rest
    expect(isAlive(pid)).toBe(false)
    await vi.waitFor(() => expect(childrenWith(SILENT_MARK)).toEqual([]), { timeout: 10_000 })
  })

  it('a conversation keeps its tools until reloadTools; then its next turn has the new server and a prompt naming it', async () => {
    fx = await appFixture({ config: { mcpServers: { everything: everythingStdio() } } })
    const sessionId = await send(null, 'first')
    await fx.core.config.update({ mcpServers: { second: everythingStdio() } })
    await fx.app.mcp.reload()
    await fx.app.mcp.whenSettled(30_000)
    expect(fx.app.mcp.list().map((s) => [s.name, s.status])).toEqual([['everything', 'ready'], ['second', 'ready']])

    await send(sessionId, 'second')
    expect(toolNames(1)).toEqual(toolNames(0))
    expect(systemPrompt(1)).toBe(systemPrompt(0))

    fx.app.chats.reloadTools(sessionId)
    await send(sessionId, 'third')
    expect(toolNames(2)).toContain('mcp__second__echo')
    expect(systemPrompt(2)).toContain('The user connected these MCP servers: everything, second.')
    // A new conversation gets the current servers too.
    await send(null, 'new one')
    expect(toolNames(3)).toEqual(toolNames(2))
  })
})

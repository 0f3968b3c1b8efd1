import { readFileSync } from 'node:fs'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import type { AgentEvent, ApprovalDecision } from '../../../shared/agent-events'
import { createAgentSession } from '../../../electron/core/agent/create-agent'
import { McpManager } from '../../../electron/core/mcp/mcp-manager'
import { agentFixture, type AgentFixture } from '../../helpers/agent-fixture'
import { everythingStdio } from '../mcp/mcp-fixture'

type ApprovalNeeded = Extract<AgentEvent, { type: 'approval_needed' }>

let fx: AgentFixture
let manager: McpManager
let logDir: string

beforeEach(async () => {
  fx = await agentFixture({
    config: { mcpServers: { everything: everythingStdio({ timeoutMs: 20_000 }) } },
    server: {
      // After a tool result, the model's answer quotes it: the answer is built from what the server returned.
      respond: (request) => {
        const last = request.body.messages.at(-1) as { role: string; content: string }
        return last.role === 'tool' ? { text: `The server said: ${last.content}` } : undefined
      }
    }
  })
  logDir = mkdtempSync(join(tmpdir(), 'cairn-mcp-turn-logs-'))
  manager = new McpManager({ servers: () => fx.core.config.get().mcpServers, settings: () => fx.core.config.get().mcp, logDir, clientVersion: 'test' })
  manager.start()
  await manager.whenSettled(30_000)
})
afterEach(async () => {
  await manager.close()
  await fx.close()
  rmSync(logDir, { recursive: true, force: true })
})

function openChat(decide: (event: ApprovalNeeded) => ApprovalDecision) {
  const session = createAgentSession({ core: fx.core, env: fx.env, workspace: fx.workspace, mcpTools: manager.conversationTools() })
  const events: AgentEvent[] = []
  session.events.on((event) => {
    events.push(event)
    if (event.type === 'approval_needed') setImmediate(() => void session.respondToApproval(event.requestId, decide(event)))
  })
  return { session, events, asked: () => events.filter((e): e is ApprovalNeeded => e.type === 'approval_needed') }
}

const call = (name: string, args: object) => ({ toolCalls: [{ name, arguments: args }] })

describe('a chat turn with an MCP server connected', () => {
  it('asks before each MCP call: allowed, denied, always allowed (saved to config.json) and then auto-approved', async () => {
    const answers: ApprovalDecision[] = [{ allow: true }, { allow: false }, { allow: true, remember: 'tool' }]
    const chat = openChat(() => answers.shift() ?? { allow: false })

    fx.server.enqueue(call('mcp__everything__echo', { message: 'first words' }))
    const first = await chat.session.runTurn('echo "first words" through the everything server').done
    expect(first.answer).toBe('The server said: Echo: first words')
    const [asked] = chat.asked()
    expect(asked).toMatchObject({
      kind: 'mcp',
      tool: 'mcp__everything__echo',
      server: 'everything',
      mcpTool: 'echo',
      scopes: ['once', 'session', 'tool'],
      preview: JSON.stringify({ message: 'first words' }, null, 2)
    })
    expect(asked.summary).toBe('Run echo on the MCP server "everything"')

    fx.server.enqueue(call('mcp__everything__echo', { message: 'second' }))
    const denied = await chat.session.runTurn('echo "second"').done
    expect(chat.asked()).toHaveLength(2)
    expect(denied.answer).toMatch(/The server said: .*The user declined: echo did not run on the MCP server \\"everything\\"/)

    fx.server.enqueue(call('mcp__everything__get-sum', { a: 2, b: 3 }))
    const always = await chat.session.runTurn('add 2 and 3').done
    expect(always.answer).toMatch(/The server said: .*5/)
    expect(chat.asked()).toHaveLength(3)
    const onDisk = JSON.parse(readFileSync(join(fx.home, 'config.json'), 'utf8'))
    // Exactly the tool the user saw is saved, and nothing else of the server's entry changes.
    expect(onDisk.mcpServers.everything).toEqual({ ...everythingStdio({ timeoutMs: 20_000 }), autoApprove: ['get-sum'] })

    fx.server.enqueue(call('mcp__everything__get-sum', { a: 40, b: 2 }))
    const auto = await chat.session.runTurn('add 40 and 2').done
    expect(auto.answer).toMatch(/The server said: .*42/)
    expect(chat.asked()).toHaveLength(3)

    // The other tool of the same server still asks.
    fx.server.enqueue(call('mcp__everything__echo', { message: 'third' }))
    await chat.session.runTurn('echo "third"').done
    expect(chat.asked()).toHaveLength(4)
  })

  it('a tool in autoApprove runs without asking, and a session grant covers that tool only', async () => {
    await fx.core.config.update({ mcpServers: { everything: { ...everythingStdio({ timeoutMs: 20_000 }), autoApprove: ['get-sum'] } } })
    const chat = openChat(() => ({ allow: true, remember: 'session' }))
    fx.server.enqueue(call('mcp__everything__get-sum', { a: 1, b: 1 }))
    expect((await chat.session.runTurn('1+1').done).answer).toMatch(/2/)
    expect(chat.asked()).toHaveLength(0)
    fx.server.enqueue(call('mcp__everything__echo', { message: 'a' }), call('mcp__everything__echo', { message: 'b' }))
    await chat.session.runTurn('echo twice').done
    expect(chat.asked()).toHaveLength(1)
    expect(JSON.parse(readFileSync(join(fx.home, 'config.json'), 'utf8')).mcpServers.everything.autoApprove).toEqual(['get-sum'])
  })

  it('keeps the system prompt and the tools byte-identical across turns, naming the server', async () => {
    const chat = openChat(() => ({ allow: true }))
    fx.server.enqueue(call('mcp__everything__echo', { message: 'one' }))
    await chat.session.runTurn('first').done
    fx.server.enqueue({ text: 'plain answer' })
    await chat.session.runTurn('second').done
    fx.server.enqueue(call('mcp__everything__get-sum', { a: 1, b: 2 }))
    await chat.session.runTurn('third').done
    const requests = fx.server.chatRequests()
    expect(requests.length).toBeGreaterThanOrEqual(5)
    const system = (requests[0].body.messages[0] as { content: string }).content
    expect(system).toContain('## MCP tools')
    expect(system).toContain('The user connected these MCP servers: everything.')
    const tools = JSON.stringify(requests[0].body.tools)
    expect(tools).toContain('mcp__everything__echo')
    for (const request of requests) {
      expect((request.body.messages[0] as { content: string }).content).toBe(system)
      expect(JSON.stringify(request.body.tools)).toBe(tools)
    }
  })
})

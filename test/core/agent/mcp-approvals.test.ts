import { afterEach, describe, expect, it } from 'vitest'
import type { ApprovalRequest } from '../../../shared/agent-events'
import { ApprovalBroker, type PendingApproval } from '../../../electron/core/agent/approvals'
import { runTool } from '../../../electron/core/tools/run-tool'
import { allowAll, closeSettledRigs, everythingStdio, hostileStdio, settledRig, toolNamed as tool } from '../mcp/mcp-fixture'

function mcpRequest(server: string, mcpTool: string): ApprovalRequest {
  return { kind: 'mcp', tool: `mcp__${server}__${mcpTool}`, server, mcpTool, summary: `Run ${mcpTool} on the MCP server "${server}"`, scopes: ['once', 'session', 'tool'] }
}

/** A broker whose user answers each request with `answer`, recording what was asked and what was saved. */
function broker(answer: (pending: PendingApproval) => { allow: boolean; remember?: 'session' | 'tool' }, autoApprove: Record<string, string[]> = {}) {
  const asked: PendingApproval[] = []
  const saved: string[] = []
  const made: ApprovalBroker = new ApprovalBroker({
    commandPrefixes: () => [],
    mcpAutoApprove: (server) => autoApprove[server] ?? [],
    saveMcpAutoApprove: async (server, mcpTool) => {
      saved.push(`${server}/${mcpTool}`)
      ;(autoApprove[server] ??= []).push(mcpTool)
    },
    onRequest: (pending) => {
      asked.push(pending)
      setImmediate(() => void made.respond(pending.requestId, answer(pending)))
    }
  })
  return { broker: made, asked, saved }
}

describe('approvals of MCP tools', () => {
  it('a session grant covers that server’s tool only: not the same-named tool of another server', async () => {
    const { broker: approvals, asked } = broker(() => ({ allow: true, remember: 'session' }))
    expect(await approvals.request(mcpRequest('github', 'search'))).toBe(true)
    expect(await approvals.request(mcpRequest('github', 'search'))).toBe(true)
    expect(asked).toHaveLength(1)
    await approvals.request(mcpRequest('gitlab', 'search'))
    await approvals.request(mcpRequest('github', 'delete_repo'))
    expect(asked).toHaveLength(3)
  })

  it('"always allow" saves exactly that server and tool; another server’s same-named tool still asks', async () => {
    const { broker: approvals, asked, saved } = broker(() => ({ allow: true, remember: 'tool' }))
    await approvals.request(mcpRequest('github', 'search'))
    expect(saved).toEqual(['github/search'])
    await approvals.request(mcpRequest('gitlab', 'search'))
    expect(saved).toEqual(['github/search', 'gitlab/search'])
    expect(asked).toHaveLength(2)
  })

  it('session grants do not pass to another conversation', async () => {
    const first = broker(() => ({ allow: true, remember: 'session' }))
    await first.broker.request(mcpRequest('github', 'search'))
    const second = broker(() => ({ allow: false }))
    expect(await second.broker.request(mcpRequest('github', 'search'))).toBe(false)
    expect(second.asked).toHaveLength(1)
  })

  it('a request without its server or tool is never granted by an earlier answer', async () => {
    const { broker: approvals, asked } = broker(() => ({ allow: true, remember: 'session' }), { github: ['search'] })
    await approvals.request({ ...mcpRequest('github', 'search'), server: undefined })
    await approvals.request({ ...mcpRequest('github', 'search'), server: undefined })
    expect(asked).toHaveLength(2)
  })
})

describe('a conversation’s MCP tools after the config changes', () => {
  afterEach(closeSettledRigs)

  it('never reach a different server that took the same name, and toggling a tool’s flags restarts nothing', async () => {
    const rig = await settledRig({ a: hostileStdio('names'), b: everythingStdio() })
    const snapshot = rig.manager.conversationTools()
    const pid = rig.manager.pidOf('a')

    // Always-allowing or disabling another tool is not a reason to restart the server.
    rig.servers.a = hostileStdio('names', { autoApprove: ['html'], disabledTools: ['huge'] })
    await rig.manager.reload()
    expect(rig.manager.pidOf('a')).toBe(pid)
    await expect(runTool(tool(snapshot, 'mcp__a__html'), {}, allowAll())).resolves.toMatch(/<script>/)

    // `b` is renamed to `a`: the old conversation's `a` tools must not run on what is now a different program.
    rig.servers.a = rig.servers.b
    delete rig.servers.b
    await rig.manager.reload()
    await rig.manager.whenSettled(30_000)
    const asked: ApprovalRequest[] = []
    const answer = (await runTool(tool(snapshot, 'mcp__a__html'), {}, allowAll(asked))) as { success: boolean; error: string }
    expect(answer.success).toBe(false)
    expect(answer.error).toMatch(/changed in the config since this conversation started; reload its tools/)
    expect(tool(rig.manager.conversationTools(), 'mcp__a__echo')).toBeDefined()
  })
})

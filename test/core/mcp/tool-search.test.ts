import { afterEach, describe, expect, it } from 'vitest'
import type { ApprovalRequest } from '../../../shared/agent-events'
import type { McpSettings } from '../../../shared/mcp'
import { runTool, toolSchema } from '../../../electron/core/tools/run-tool'
import { allowAll, closeSettledRigs, everythingStdio, settledRig, toolNamed, type ManagerRig } from './mcp-fixture'

afterEach(closeSettledRigs)

function ready(settings: Partial<McpSettings>): Promise<ManagerRig> {
  return settledRig({ everything: everythingStdio() }, { settings })
}

describe('MCP tool search', () => {
  it('sends every tool while they fit the budgets, and only the search and call tools once they do not', async () => {
    const { manager } = await ready({ toolSearch: 'auto' })
    const all = manager.conversationTools()
    expect(all.length).toBe(manager.list()[0].tools.length)
    expect(all.map((t) => t.name)).not.toContain('mcp_tool_search')

    const few = await ready({ toolSearch: 'auto', toolSearchMaxTools: 3 })
    expect(few.manager.conversationTools().map((t) => t.name)).toEqual(['mcp_tool_search', 'mcp_call'])
    const cheap = await ready({ toolSearch: 'auto', toolSearchMaxTokens: 100 })
    expect(cheap.manager.conversationTools().map((t) => t.name)).toEqual(['mcp_tool_search', 'mcp_call'])
    const never = await ready({ toolSearch: 'never', toolSearchMaxTools: 1 })
    expect(never.manager.conversationTools().length).toBe(all.length)
  })

  it('finds tools by words and by exact name, and mcp_call runs one through the same approval', async () => {
    const { manager } = await ready({ toolSearch: 'always' })
    const tools = manager.conversationTools()
    const search = toolNamed(tools, 'mcp_tool_search')
    expect(search.description).toContain('everything')
    expect(search.mcp?.map((ref) => ref.exposedName)).toContain('mcp__everything__echo')

    const found = (await runTool(search, { query: 'sum of two numbers' }, allowAll())) as { tools: Array<{ name: string; input_schema: object }> }
    expect(found.tools[0].name).toBe('mcp__everything__get-sum')
    expect(found.tools[0].input_schema).toMatchObject({ type: 'object', properties: { a: { type: 'number' } } })
    const exact = (await runTool(search, { query: 'select:mcp__everything__echo,mcp__everything__get-tiny-image' }, allowAll())) as { tools: Array<{ name: string }> }
    expect(exact.tools.map((t) => t.name)).toEqual(['mcp__everything__echo', 'mcp__everything__get-tiny-image'])
    const none = (await runTool(search, { query: 'zzqx' }, allowAll())) as { tools: unknown[]; note: string }
    expect(none.tools).toEqual([])

    const asked: ApprovalRequest[] = []
    const call = toolNamed(tools, 'mcp_call')
    await expect(runTool(call, { name: 'mcp__everything__echo', arguments: { message: 'via search' } }, allowAll(asked))).resolves.toBe('Echo: via search')
    expect(asked).toEqual([expect.objectContaining({ kind: 'mcp', tool: 'mcp__everything__echo', mcpTool: 'echo' })])
    const image = await runTool(call, { name: 'mcp__everything__get-tiny-image', arguments: {} }, allowAll())
    expect(String(image)).toMatch(/\[image: image\/png, \d+ bytes, not shown\]/)
    expect(await runTool(call, { name: 'mcp__everything__nope', arguments: {} }, allowAll())).toMatchObject({ success: false, error: expect.stringContaining('mcp_tool_search') })
    // The two stand-ins cost a fraction of the full list.
    const full = (await ready({ toolSearch: 'never' })).manager.conversationTools()
    expect(JSON.stringify(tools.map((t) => toolSchema(t))).length).toBeLessThan(JSON.stringify(full.map((t) => toolSchema(t))).length / 3)
  })
})

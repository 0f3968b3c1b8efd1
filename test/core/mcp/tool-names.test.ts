import { describe, expect, it } from 'vitest'
import { MCP_TOOL_NAME_MAX } from '../../../shared/mcp'
import { exposedToolName, McpToolNames, sanitizeNamePart } from '../../../electron/core/mcp/tool-names'

describe('MCP tool names', () => {
  it('is mcp__<server>__<tool> with anything a provider refuses turned into _', () => {
    expect(exposedToolName('everything', 'echo')).toBe('mcp__everything__echo')
    expect(exposedToolName('my server.v2', 'read/file (fast)')).toBe('mcp__my_server_v2__read_file__fast_')
    expect(sanitizeNamePart('')).toBe('_')
    expect(exposedToolName('服务', 'ok')).toMatch(/^[a-zA-Z0-9_-]+$/)
  })

  it('cuts long names to the provider limit, and two cut names stay apart', () => {
    const server = 'a-very-long-server-name-for-testing'
    const one = exposedToolName(server, 'fetch_the_quarterly_report_for_the_region')
    const two = exposedToolName(server, 'fetch_the_quarterly_report_for_the_region_eu')
    expect(one.length).toBe(MCP_TOOL_NAME_MAX)
    expect(two.length).toBe(MCP_TOOL_NAME_MAX)
    expect(one).not.toBe(two)
    expect(one).toMatch(/^mcp__a-very-long-server-name-for-testing__fetch.*_[0-9a-f]{8}$/)
    // The same pair always gets the same name (the prompt cache depends on it).
    expect(exposedToolName(server, 'fetch_the_quarterly_report_for_the_region')).toBe(one)
  })

  it('gives colliding originals distinct names and maps each back to its server and tool', () => {
    const names = new McpToolNames()
    const dotted = names.nameOf('files', 'read.file')
    const underscored = names.nameOf('files', 'read_file')
    expect(dotted).toBe('mcp__files__read_file')
    expect(underscored).not.toBe(dotted)
    expect(underscored).toMatch(/^mcp__files__read_file_[0-9a-f]{8}$/)
    expect(names.nameOf('files', 'read.file')).toBe(dotted)
    expect(names.resolve(dotted)).toEqual({ server: 'files', tool: 'read.file' })
    expect(names.resolve(underscored)).toEqual({ server: 'files', tool: 'read_file' })
    expect(names.resolve('mcp__files__nothing')).toBeNull()
    // A server and a tool with `__` in their names cannot pass for another pair.
    const left = names.nameOf('a__b', 'c')
    const right = names.nameOf('a', 'b__c')
    expect(left).toBe('mcp__a__b__c')
    expect(right).not.toBe(left)
    expect(names.resolve(right)).toEqual({ server: 'a', tool: 'b__c' })
  })
})

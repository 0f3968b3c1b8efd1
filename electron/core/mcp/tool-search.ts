import { z } from 'zod'
import { runTool } from '../tools/run-tool'
import type { McpToolRef, ToolDef } from '../tools/types'
import { mcpParameters, type McpSnapshotTool } from './mcp-tools'

export const TOOL_SEARCH_NAME = 'mcp_tool_search'
export const TOOL_CALL_NAME = 'mcp_call'
/** Tools one search returns unless the model asks for another number. */
const DEFAULT_RESULTS = 5
const MAX_RESULTS = 20

function words(text: string): Set<string> {
  return new Set(
    text
      .toLowerCase()
      .split(/[^a-z0-9]+/)
      .filter((word) => word.length >= 2)
  )
}

/**
 * The tools a query finds: `select:<name>[,<name>]` fetches exact exposed names; otherwise tools are
 * ranked by how many of the query's words appear in their name and description (ties: snapshot order).
 */
export function searchMcpTools(entries: readonly McpSnapshotTool[], query: string, limit = DEFAULT_RESULTS): McpSnapshotTool[] {
  const trimmed = query.trim()
  if (trimmed.toLowerCase().startsWith('select:')) {
    const names = trimmed.slice('select:'.length).split(',').map((name) => name.trim()).filter(Boolean)
    return names.flatMap((name) => entries.filter((entry) => entry.exposedName === name || `${entry.server}/${entry.tool}` === name))
  }
  const wanted = words(trimmed)
  return entries
    .map((entry, order) => {
      const have = words(`${entry.exposedName} ${entry.server} ${entry.tool} ${entry.definition.title ?? ''} ${entry.definition.description ?? ''}`)
      return { entry, order, score: [...wanted].filter((word) => have.has(word)).length }
    })
    .filter((ranked) => ranked.score > 0)
    .sort((a, b) => b.score - a.score || a.order - b.order)
    .slice(0, limit)
    .map((ranked) => ranked.entry)
}

/**
 * The two tools that stand in for many MCP tools: `mcp_tool_search` finds them (names, descriptions,
 * input schemas) and `mcp_call` runs one by its exposed name through the tool itself, so every call
 * is approved exactly as a directly offered tool would be.
 */
export function toolSearchTools(entries: readonly McpSnapshotTool[], tools: ReadonlyMap<string, ToolDef>): ToolDef[] {
  const refs: McpToolRef[] = entries.map(({ server, tool, exposedName }) => ({ server, tool, exposedName }))
  const servers = [...new Set(entries.map((entry) => entry.server))]
  const search: ToolDef = {
    name: TOOL_SEARCH_NAME,
    description: `Finds tools of the user's MCP servers (${servers.join(', ')}; ${entries.length} tools) by what they do. Query with a few words, or "select:<name>,<name>" for exact tool names. Returns each tool's name, description and input schema; run one with ${TOOL_CALL_NAME}.`,
    schema: z.object({
      query: z.string().trim().min(1, 'say what the tool should do, or select:<name>'),
      limit: z.number().int().min(1).max(MAX_RESULTS).optional().describe(`How many tools to return (default ${DEFAULT_RESULTS})`)
    }),
    mcp: refs,
    run: (args) => {
      const { query, limit } = args as { query: string; limit?: number }
      const found = searchMcpTools(entries, query, limit)
      if (!found.length) return { success: true, tools: [], note: `No MCP tool matches "${query}". Try other words; the servers are: ${servers.join(', ')}.` }
      return {
        success: true,
        tools: found.map((entry) => ({ name: entry.exposedName, description: tools.get(entry.exposedName)?.description ?? '', input_schema: mcpParameters(entry.definition) }))
      }
    }
  }
  const call: ToolDef = {
    name: TOOL_CALL_NAME,
    description: `Runs an MCP tool found with ${TOOL_SEARCH_NAME}: its exact name and its arguments (matching the input schema the search returned).`,
    schema: z.object({
      name: z.string().trim().min(1, 'the tool name mcp_tool_search returned'),
      arguments: z.record(z.string(), z.unknown()).default({})
    }),
    mcp: refs,
    run: (args, ctx) => {
      const { name, arguments: toolArgs } = args as { name: string; arguments: Record<string, unknown> }
      const tool = tools.get(name)
      if (!tool) return { success: false, error: `There is no MCP tool named "${name}". Find it with ${TOOL_SEARCH_NAME} first and use the exact name it returns.` }
      return runTool(tool, toolArgs, ctx)
    }
  }
  return [search, call]
}

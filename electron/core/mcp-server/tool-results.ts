import type { CallToolResult } from '@modelcontextprotocol/server'
import type { McpSource } from '../../../shared/ledger'

/** The source the connected client's writes carry (`mcp:<its clientInfo name>`), read when a write happens. */
export type ClientSource = () => McpSource

/**
 * A tool's answer as MCP wants it: the result as JSON text, flagged `isError` when it says
 * `success: false`, so the calling agent sees the specific error rather than a bare failure.
 */
export function toolResult<R extends { success: boolean }>(result: R): CallToolResult {
  return { content: [{ type: 'text', text: JSON.stringify(result, null, 2) }], ...(result.success ? {} : { isError: true }) }
}

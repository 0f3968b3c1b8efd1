import type { enMcpServer } from './en-mcp-server'

/** Words for Cairn serving its memory and skills over MCP (`cairn mcp serve`, writes from other agents). */
export const zhCNMcpServer: Record<keyof typeof enMcpServer, string> = {
}

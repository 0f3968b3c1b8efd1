import type { enMcp } from './en-mcp'

/** Words for MCP servers as tools: Settings → Tools (MCP), approvals of MCP tools, resources and prompts, `cairn mcp`. */
export const zhCNMcp: Record<keyof typeof enMcp, string> = {
  'approval.mcp': 'Cairn 想要使用 MCP 服务器的一个工具'
}

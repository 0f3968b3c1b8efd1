import type { enMcpServer } from './en-mcp-server'

/** Words for Cairn serving its memory and skills over MCP (`cairn mcp serve`, writes from other agents). */
export const zhCNMcpServer: Record<keyof typeof enMcpServer, string> = {
  'source.mcp': '{client}（MCP）',
  'memory.info.mcp': '{client}（MCP）{when}保存',
  'inbox.group.mcp': '{client}（MCP）的建议',
  'inbox.cause.suggested.badge': '建议',
  'inbox.cause.suggested': '另一个智能体通过 MCP 提出了这项建议；没有你的同意，Cairn 不会应用。'
}

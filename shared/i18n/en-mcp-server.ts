/** Words for Cairn serving its memory and skills over MCP (`cairn mcp serve`, writes from other agents). Part of `en.ts`. */
export const enMcpServer = {
  'source.mcp': '{client} (MCP)',
  'memory.info.mcp': 'Saved by {client} (MCP) {when}',
  'inbox.group.mcp': 'Suggested by {client} (MCP)',
  'inbox.cause.suggested.badge': 'Suggested',
  'inbox.cause.suggested': 'Another agent suggested this over MCP; Cairn never applies those without you.'
} as const

/** Words for Cairn serving its memory and skills over MCP (`cairn mcp serve`, writes from other agents). Part of `en.ts`. */
export const enMcpServer = {
} as const

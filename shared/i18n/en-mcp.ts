/** Words for MCP servers as tools: Settings → Tools (MCP), approvals of MCP tools, resources and prompts, `cairn mcp`. Part of `en.ts`. */
export const enMcp = {
  'approval.mcp': 'Cairn wants to use a tool from an MCP server'
} as const

/**
 * Reading MCP server JSON as other apps write it (Claude Desktop's `claude_desktop_config.json`,
 * Claude Code's `.mcp.json`), from a file or pasted into Settings. Shared: the renderer checks pasted
 * text before sending it, and the core reads the files.
 */

export type ParsedServersFile = { ok: true; servers: Record<string, unknown> } | { ok: false; error: string }

/**
 * The `mcpServers` of one file's text (an object of servers by name). Malformed JSON is reported with
 * the parser's own words, which carry the position; a file without `mcpServers` holds no servers.
 */
export function parseServersFile(text: string): ParsedServersFile {
  let value: unknown
  try {
    value = JSON.parse(text)
  } catch (error) {
    return { ok: false, error: `not valid JSON: ${(error as Error).message}` }
  }
  if (!isObject(value)) return { ok: false, error: 'the file must hold a JSON object' }
  const servers = value.mcpServers
  if (servers === undefined) return { ok: true, servers: {} }
  if (!isObject(servers)) return { ok: false, error: '"mcpServers" must be an object of servers by name' }
  return { ok: true, servers }
}

/**
 * Servers as pasted by the user: a whole config (`{"mcpServers": {…}}`), an object of servers by name,
 * or one server's JSON with `name` given separately.
 */
export function parsePastedServers(text: string, name?: string): ParsedServersFile {
  const parsed = parseServersFile(text)
  if (!parsed.ok) return parsed
  if (Object.keys(parsed.servers).length > 0) return parsed
  const value = JSON.parse(text) as Record<string, unknown>
  if ('mcpServers' in value || Object.keys(value).length === 0) return { ok: false, error: 'there are no servers in it' }
  if ('command' in value || 'url' in value) return name ? { ok: true, servers: { [name]: value } } : { ok: false, error: 'a single server needs a name' }
  if (Object.values(value).every(isObject)) return { ok: true, servers: value }
  return { ok: false, error: 'expected {"mcpServers": {…}}, an object of servers by name, or one server with "command" or "url"' }
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}

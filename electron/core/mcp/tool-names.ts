import { createHash } from 'node:crypto'
import { MCP_TOOL_NAME_MAX } from '../../../shared/mcp'

/** Where an exposed tool name leads: the server (its name in config.json) and the server's own tool name. */
export interface McpToolAddress {
  server: string
  tool: string
}

const PREFIX = 'mcp__'
const SEPARATOR = '__'
/** Hex characters of the hash that keeps a cut or colliding name unique (`_` + these). */
const HASH_CHARS = 8

/** What a provider accepts in a function name: anything else becomes `_`. */
export function sanitizeNamePart(part: string): string {
  const clean = part.replace(/[^a-zA-Z0-9_-]/g, '_')
  return clean === '' ? '_' : clean
}

function shortHash(server: string, tool: string, salt: number): string {
  return createHash('sha256').update(`${server}\u0000${tool}\u0000${salt}`).digest('hex').slice(0, HASH_CHARS)
}

/** `mcp__<server>__<tool>` sanitised; cut to the limit with a hash of the original pair, so cut names stay apart. */
export function exposedToolName(server: string, tool: string, salt = 0): string {
  const full = `${PREFIX}${sanitizeNamePart(server)}${SEPARATOR}${sanitizeNamePart(tool)}`
  if (full.length <= MCP_TOOL_NAME_MAX && salt === 0) return full
  const suffix = `_${shortHash(server, tool, salt)}`
  return full.slice(0, MCP_TOOL_NAME_MAX - suffix.length) + suffix
}

/**
 * Names for every server's tools, unique among themselves (the `mcp__` prefix keeps them apart from
 * Cairn's own tools and from mcp_tool_search / mcp_call). Deterministic for the same input: servers in
 * config order, tools in the server's order, and a collision (two originals that sanitise alike, or
 * `a__b`/`c` against `a`/`b__c`) gives the later one a hashed name.
 */
export class McpToolNames {
  private readonly byName = new Map<string, McpToolAddress>()
  private readonly byAddress = new Map<string, string>()

  /** The exposed name of a server's tool, assigned on first ask and stable after. */
  nameOf(server: string, tool: string): string {
    const key = `${server}\u0000${tool}`
    const known = this.byAddress.get(key)
    if (known) return known
    let salt = 0
    let name = exposedToolName(server, tool)
    while (this.byName.has(name)) name = exposedToolName(server, tool, ++salt)
    this.byName.set(name, { server, tool })
    this.byAddress.set(key, name)
    return name
  }

  /** The server and tool behind an exposed name, or null when it is not an MCP tool of this set. */
  resolve(exposedName: string): McpToolAddress | null {
    return this.byName.get(exposedName) ?? null
  }
}

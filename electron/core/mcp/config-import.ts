import { existsSync, readFileSync } from 'node:fs'
import { isDeepStrictEqual } from 'node:util'
import { join, win32 } from 'node:path'
import type { McpImportCandidate, McpImportPreview, McpImportSource } from '../../../shared/ipc/contract-mcp'
import { MCP_SECRET_REF, mcpServerNameSchema, parseMcpServerConfig } from '../../../shared/mcp'
import { parseServersFile } from '../../../shared/mcp-json'

/** A kept secret's value by name (null when none is kept). */
export type ResolveSecret = (name: string) => string | null

/**
 * MCP servers another app already has configured, read so the user can bring them into Cairn: Claude
 * Desktop's `claude_desktop_config.json` and Claude Code's `.mcp.json` (project) and `~/.claude.json`
 * (user scope). Nothing here writes; the app and the CLI save what the user picked.
 */

/** Where to look; tests pass temp folders so they never read the real ones. */
export interface ImportLocations {
  /** The user's home folder. */
  home: string
  /** Windows' %APPDATA% (default: `<home>\AppData\Roaming`). */
  appData?: string
  /** The folder Cairn was started in, for Claude Code's project `.mcp.json`. */
  cwd: string
  platform: NodeJS.Platform
}

/** The files each source keeps its servers in, in the order they are read (a later file's server of the same name is listed too). */
export function importSourceFiles(from: McpImportSource, where: ImportLocations): string[] {
  if (from === 'claude-code') return [join(where.cwd, '.mcp.json'), join(where.home, '.claude.json')]
  if (where.platform === 'win32') return [win32.join(where.appData ?? win32.join(where.home, 'AppData', 'Roaming'), 'Claude', 'claude_desktop_config.json')]
  if (where.platform === 'darwin') return [join(where.home, 'Library', 'Application Support', 'Claude', 'claude_desktop_config.json')]
  return [join(where.home, '.config', 'Claude', 'claude_desktop_config.json')]
}

/**
 * Each server found, checked, and compared with the server of that name Cairn has; Cairn's
 * `${secret:…}` values compare as the values kept for them (an import moves values there).
 */
export function compareWithExisting(
  found: Array<{ file: string; servers: Record<string, unknown> }>,
  existing: Record<string, unknown>,
  resolveSecret: ResolveSecret = () => null
): McpImportCandidate[] {
  const candidates: McpImportCandidate[] = []
  for (const { file, servers } of found) {
    for (const [name, server] of Object.entries(servers)) {
      const problem = serverProblem(name, server)
      if (problem) {
        candidates.push({ name, source: file, server: isObject(server) ? server : {}, status: 'invalid', error: problem })
        continue
      }
      const raw = server as Record<string, unknown>
      const status = !Object.hasOwn(existing, name) ? 'new' : isDeepStrictEqual(comparable(existing[name], resolveSecret), comparable(raw, resolveSecret)) ? 'identical' : 'conflict'
      candidates.push({ name, source: file, server: raw, status })
    }
  }
  return candidates
}

/** Reads a source's files and compares what they hold with Cairn's servers; a broken file is a problem, the others still count. */
export function previewImport(from: McpImportSource, where: ImportLocations, existing: Record<string, unknown>, resolveSecret?: ResolveSecret): McpImportPreview {
  const files: McpImportPreview['files'] = []
  const problems: McpImportPreview['problems'] = []
  const found: Array<{ file: string; servers: Record<string, unknown> }> = []
  for (const path of importSourceFiles(from, where)) {
    const present = existsSync(path)
    files.push({ path, found: present })
    if (!present) continue
    let text: string
    try {
      text = readFileSync(path, 'utf8')
    } catch (error) {
      problems.push({ file: path, error: (error as Error).message })
      continue
    }
    const parsed = parseServersFile(text)
    if (parsed.ok) found.push({ file: path, servers: parsed.servers })
    else problems.push({ file: path, error: parsed.error })
  }
  return { from, files, servers: compareWithExisting(found, existing, resolveSecret), problems }
}

function serverProblem(name: string, server: unknown): string | null {
  const named = mcpServerNameSchema.safeParse(name)
  if (!named.success) return `name: ${named.error.issues[0]?.message ?? 'not a valid server name'}`
  if (!isObject(server)) return 'server: must be an object'
  const parsed = parseMcpServerConfig(server)
  return parsed.ok ? null : parsed.error
}

/**
 * The same server whoever wrote it: Claude Code's `"type": "stdio"` is what Claude Desktop leaves out,
 * and a `${secret:…}` value is the value kept for it.
 */
function comparable(server: unknown, resolveSecret: ResolveSecret): unknown {
  if (!isObject(server)) return server
  const { type, ...rest } = server
  const out: Record<string, unknown> = type === 'stdio' || type === undefined ? rest : { type, ...rest }
  for (const field of ['env', 'headers']) {
    const values = out[field]
    if (!isObject(values)) continue
    out[field] = Object.fromEntries(
      Object.entries(values).map(([key, value]) => {
        const ref = typeof value === 'string' ? MCP_SECRET_REF.exec(value) : null
        return [key, ref ? (resolveSecret(ref[1]) ?? value) : value]
      })
    )
  }
  return out
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}

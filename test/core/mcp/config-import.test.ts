import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { importSourceFiles, previewImport, type ImportLocations } from '../../../electron/core/mcp/config-import'
import { parsePastedServers } from '../../../shared/mcp-json'

const dirs: string[] = []
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true })
})

function places(platform: NodeJS.Platform = 'linux'): ImportLocations {
  const root = mkdtempSync(join(tmpdir(), 'cairn-import-'))
  dirs.push(root)
  const home = join(root, 'home')
  const cwd = join(root, 'project')
  mkdirSync(home, { recursive: true })
  mkdirSync(cwd, { recursive: true })
  return { home, cwd, platform, appData: join(root, 'AppData', 'Roaming') }
}

function write(path: string, content: unknown): void {
  mkdirSync(dirname(path), { recursive: true })
  writeFileSync(path, typeof content === 'string' ? content : JSON.stringify(content, null, 2))
}

const everything = { command: 'npx', args: ['-y', '@modelcontextprotocol/server-everything'] }

describe('importing MCP servers from Claude Desktop and Claude Code', () => {
  it('finds Claude Desktop’s file where each system keeps it', () => {
    const where = places()
    expect(importSourceFiles('claude-desktop', where)).toEqual([join(where.home, '.config', 'Claude', 'claude_desktop_config.json')])
    expect(importSourceFiles('claude-desktop', { ...where, platform: 'darwin' })[0]).toBe(join(where.home, 'Library', 'Application Support', 'Claude', 'claude_desktop_config.json'))
    expect(importSourceFiles('claude-desktop', { ...where, platform: 'win32', appData: 'C:\\Users\\ann\\AppData\\Roaming' })[0]).toBe('C:\\Users\\ann\\AppData\\Roaming\\Claude\\claude_desktop_config.json')
  })

  it('lists new, identical, conflicting and invalid servers, and reads Claude Code’s project and user files', () => {
    const where = places()
    write(join(where.cwd, '.mcp.json'), { mcpServers: { everything: { type: 'stdio', ...everything }, docs: { type: 'http', url: 'https://docs.example.com/mcp' } } })
    write(join(where.home, '.claude.json'), { numStartups: 4, mcpServers: { files: { command: 'node', args: ['other.js'] }, broken: { args: ['no command'] } } })
    const preview = previewImport('claude-code', where, { everything, files: { command: 'node', args: ['fs.js'] } })
    expect(preview.files).toEqual([
      { path: join(where.cwd, '.mcp.json'), found: true },
      { path: join(where.home, '.claude.json'), found: true }
    ])
    const byName = Object.fromEntries(preview.servers.map((server) => [server.name, server]))
    // `"type": "stdio"` (Claude Code) is the same server as none (Claude Desktop).
    expect(byName.everything.status).toBe('identical')
    expect(byName.docs).toMatchObject({ status: 'new', source: join(where.cwd, '.mcp.json') })
    expect(byName.files).toMatchObject({ status: 'conflict', source: join(where.home, '.claude.json') })
    expect(byName.broken.status).toBe('invalid')
    expect(byName.broken.error).toContain('command')
    expect(preview.problems).toEqual([])
  })

  it('compares a kept secret as its value: an imported token already moved to the secret store is not a conflict', () => {
    const where = places()
    write(join(where.home, '.config', 'Claude', 'claude_desktop_config.json'), { mcpServers: { github: { command: 'gh-mcp', env: { GITHUB_TOKEN: 'ghp_1' } } } })
    const existing = { github: { command: 'gh-mcp', env: { GITHUB_TOKEN: '${secret:mcp.github.env.GITHUB_TOKEN}' } } }
    const kept = (name: string) => (name === 'mcp.github.env.GITHUB_TOKEN' ? 'ghp_1' : null)
    expect(previewImport('claude-desktop', where, existing, kept).servers[0].status).toBe('identical')
    expect(previewImport('claude-desktop', where, existing, () => 'ghp_2').servers[0].status).toBe('conflict')
  })

  it('reports malformed JSON by file with the parser’s position, and still imports the other file', () => {
    const where = places()
    write(join(where.cwd, '.mcp.json'), '{ "mcpServers": { "a": { "command": "x", } } }')
    write(join(where.home, '.claude.json'), { mcpServers: { everything } })
    const preview = previewImport('claude-code', where, {})
    expect(preview.problems).toHaveLength(1)
    expect(preview.problems[0].file).toBe(join(where.cwd, '.mcp.json'))
    expect(preview.problems[0].error).toMatch(/not valid JSON: .*position \d+/)
    expect(preview.servers.map((server) => [server.name, server.status])).toEqual([['everything', 'new']])
  })

  it('says which files were not there, and finds nothing without failing', () => {
    const preview = previewImport('claude-desktop', places(), {})
    expect(preview.files[0].found).toBe(false)
    expect(preview.servers).toEqual([])
    expect(preview.problems).toEqual([])
  })

  it('reads pasted JSON as a whole config, servers by name, or one named server', () => {
    expect(parsePastedServers(JSON.stringify({ mcpServers: { everything } }))).toEqual({ ok: true, servers: { everything } })
    expect(parsePastedServers(JSON.stringify({ everything, other: everything }))).toEqual({ ok: true, servers: { everything, other: everything } })
    expect(parsePastedServers(JSON.stringify(everything), 'mine')).toEqual({ ok: true, servers: { mine: everything } })
    expect(parsePastedServers(JSON.stringify(everything))).toMatchObject({ ok: false, error: 'a single server needs a name' })
    expect(parsePastedServers('[1, 2]')).toMatchObject({ ok: false })
    expect(parsePastedServers('{"mcpServers": {}}')).toMatchObject({ ok: false, error: 'there are no servers in it' })
    expect(parsePastedServers('{"a": ')).toMatchObject({ ok: false, error: expect.stringContaining('not valid JSON') })
  })
})

import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import type { McpServerInfo } from '../../shared/mcp'
import { runCairn } from '../helpers/run-cli'

const everythingBin = join(__dirname, '..', '..', 'node_modules', '@modelcontextprotocol', 'server-everything', 'dist', 'index.js')
const everything = { command: process.execPath, args: [everythingBin, 'stdio'] }

const dirs: string[] = []
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true })
})

/** A data home whose config.json holds these servers, and a user home and project folder beside it. */
function setup(mcpServers: Record<string, unknown>) {
  const root = mkdtempSync(join(tmpdir(), 'cairn-cli-mcp-'))
  dirs.push(root)
  const home = join(root, 'data')
  const user = join(root, 'user')
  const project = join(root, 'project')
  for (const dir of [home, user, project]) mkdirSync(dir, { recursive: true })
  writeFileSync(join(home, 'config.json'), JSON.stringify({ mcpServers }, null, 2))
  const cairn = (...args: string[]) => runCairn(['--home', home, 'mcp', ...args], { cwd: project, env: { HOME: user } })
  return { home, user, project, cairn, config: () => JSON.parse(readFileSync(join(home, 'config.json'), 'utf8')) }
}

describe('cairn mcp', () => {
  it('lists each server with its state: the tools of a ready one, why a failed one failed with its log, a disabled one', async () => {
    const { cairn } = setup({ everything, broken: { command: '/no/such/program' }, off: { ...everything, enabled: false } })
    const run = await cairn('list')
    expect(run.code).toBe(0)
    expect(run.stdout).toMatch(/^everything {2}ready, \d+ tools/m)
    expect(run.stdout).toMatch(/^ {4}echo {2}Echoes back the input string$/m)
    expect(run.stdout).toMatch(/^broken {2}failed/m)
    expect(run.stdout).toContain('Failed: its program could not be started (spawn_failed)')
    expect(run.stdout).toMatch(/Log:\n.*\[cairn\] starting/)
    expect(run.stdout).toMatch(/^off {2}disabled/m)

    const json = await cairn('list', '--json')
    const servers = JSON.parse(json.stdout) as McpServerInfo[]
    expect(servers.map((server) => [server.name, server.status])).toEqual([
      ['everything', 'ready'],
      ['broken', 'failed'],
      ['off', 'disabled']
    ])
    expect(servers[0].tools.map((tool) => tool.name)).toContain('get-sum')
  })

  it('tests one server: exit 0 with its tools when ready, 1 with the error when it fails, 1 for a name it does not have', async () => {
    const { cairn } = setup({ everything, broken: { command: '/no/such/program' } })
    const ready = await cairn('test', 'everything')
    expect(ready.code).toBe(0)
    expect(ready.stdout).toContain('get-sum')
    const failed = await cairn('test', 'broken')
    expect(failed.code).toBe(1)
    expect(failed.stdout).toContain('spawn_failed')
    const unknown = await cairn('test', 'nope')
    expect(unknown.code).toBe(1)
    expect(unknown.stderr).toContain('There is no MCP server named "nope"')
    expect((await cairn('test')).code).toBe(2)
  })

  it('imports the new servers of Claude Code and Claude Desktop, skips the ones it has, and keeps env values out of config.json', async () => {
    const { cairn, config, user, project } = setup({ everything })
    writeFileSync(join(project, '.mcp.json'), JSON.stringify({ mcpServers: { everything: { type: 'stdio', ...everything }, docs: { type: 'http', url: 'https://docs.example.com/mcp' } } }))
    mkdirSync(join(user, '.config', 'Claude'), { recursive: true })
    writeFileSync(
      join(user, '.config', 'Claude', 'claude_desktop_config.json'),
      JSON.stringify({ mcpServers: { github: { command: 'github-mcp', env: { GITHUB_TOKEN: 'ghp_secret123' } } } })
    )
    writeFileSync(join(user, '.claude.json'), '{ "mcpServers": ')

    const dry = await cairn('import', '--dry-run')
    expect(dry.stdout).toContain('Would import 2 servers: github, docs.')
    expect(Object.keys(config().mcpServers)).toEqual(['everything'])

    const run = await cairn('import')
    // The broken ~/.claude.json is reported by file, and the rest still imports.
    expect(run.code).toBe(1)
    expect(run.stdout).toMatch(new RegExp(`PROBLEM {2}${join(user, '.claude.json').replace(/[.\\]/g, '\\$&')}: not valid JSON`))
    expect(run.stdout).toContain('everything: already in Cairn, skipped')
    expect(run.stdout).toContain('CAIRN_SECRET_MCP_GITHUB_ENV_GITHUB_TOKEN')
    const servers = config().mcpServers
    expect(Object.keys(servers)).toEqual(['everything', 'github', 'docs'])
    expect(servers.github.env).toEqual({ GITHUB_TOKEN: '${secret:mcp.github.env.GITHUB_TOKEN}' })
    expect(JSON.stringify(config())).not.toContain('ghp_secret123')

    const again = await cairn('import', '--from', 'claude-desktop', '--json')
    expect(JSON.parse(again.stdout).imported).toEqual([])
    expect((await cairn('import', '--from', 'elsewhere')).code).toBe(2)
  })
})

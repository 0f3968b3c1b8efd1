import { mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { appFixture, type AppFixture } from '../../helpers/app-fixture'

const everythingBin = join(__dirname, '..', '..', '..', 'node_modules', '@modelcontextprotocol', 'server-everything', 'dist', 'index.js')
const everything = { command: process.execPath, args: [everythingBin, 'stdio'] }

let fx: AppFixture | undefined
afterEach(async () => {
  await fx?.close()
  fx = undefined
})

const configFile = () => JSON.parse(readFileSync(join(fx!.home, 'config.json'), 'utf8'))

describe('MCP routes', () => {
  it('lists servers (starting them), and tells the windows as one becomes ready', async () => {
    fx = await appFixture({ config: { mcpServers: { everything, broken: { command: '/no/such/program' } } } })
    const first = await fx.ok('mcp.list')
    expect(first.servers.map((server) => server.name)).toEqual(['everything', 'broken'])
    const ready = await fx.waitFor('mcp.changed', ({ servers }) => servers[0].status === 'ready' && servers[1].status === 'failed', 20_000)
    expect(ready.servers[0].tools.some((tool) => tool.name === 'get-sum')).toBe(true)
    expect(ready.servers[1].error?.code).toBe('spawn_failed')
    expect((await fx.ok('mcp.test', { name: 'everything' })).status).toBe('ready')
    expect((await fx.ok('mcp.log', { name: 'broken' })).text).toContain('spawn_failed')
    expect(await fx.call('mcp.test', { name: 'nope' })).toMatchObject({ ok: false, error: { code: 'NOT_FOUND' } })
  })

  it('saves a server with its secret kept out of config.json, edits tools, and removes it with the secret only it used', async () => {
    fx = await appFixture({ config: { mcpServers: { other: { command: 'x', enabled: false, future: { keep: true } } } } })
    const saved = await fx.ok('mcp.save', { name: 'gh', server: { command: 'gh-mcp', enabled: false }, secrets: { env: { GITHUB_TOKEN: 'ghp_s3cret' } } })
    expect(configFile().mcpServers.gh.env).toEqual({ GITHUB_TOKEN: '${secret:mcp.gh.env.GITHUB_TOKEN}' })
    expect(readFileSync(join(fx.home, 'config.json'), 'utf8')).not.toContain('ghp_s3cret')
    expect(saved.keptSecrets).toEqual(['mcp.gh.env.GITHUB_TOKEN'])
    expect(JSON.stringify(saved)).not.toContain('ghp_s3cret')
    expect(fx.app.options.secrets.getSecret?.('mcp.gh.env.GITHUB_TOKEN')).toBe('ghp_s3cret')

    // A name taken, an invalid server: refused, nothing written.
    expect(await fx.call('mcp.save', { name: 'gh', server: { command: 'y' } })).toMatchObject({ ok: false, error: { code: 'CONFLICT' } })
    expect(await fx.call('mcp.save', { name: 'bad', server: { type: 'http', url: 'ftp://x' } })).toMatchObject({ ok: false, error: { code: 'VALIDATION_FAILED' } })
    expect(Object.keys(configFile().mcpServers)).toEqual(['other', 'gh'])

    await fx.ok('mcp.setTool', { name: 'other', tool: 'echo', enabled: false })
    await fx.ok('mcp.setTool', { name: 'other', tool: 'add', autoApprove: true })
    expect(configFile().mcpServers.other).toEqual({ command: 'x', enabled: false, future: { keep: true }, disabledTools: ['echo'], autoApprove: ['add'] })
    await fx.ok('mcp.setTool', { name: 'other', tool: 'echo', enabled: true })
    expect(configFile().mcpServers.other.disabledTools).toEqual([])

    // Renamed in place: the order stays. A secret given anew replaces the old one, which is forgotten.
    await fx.ok('mcp.save', { name: 'renamed', previousName: 'other', server: { command: 'x', enabled: false } })
    expect(Object.keys(configFile().mcpServers)).toEqual(['renamed', 'gh'])
    await fx.ok('mcp.save', { name: 'github', previousName: 'gh', server: configFile().mcpServers.gh, secrets: { env: { GITHUB_TOKEN: 'ghp_n3w' } } })
    expect(configFile().mcpServers.github.env).toEqual({ GITHUB_TOKEN: '${secret:mcp.github.env.GITHUB_TOKEN}' })
    expect(fx.app.options.secrets.getSecret?.('mcp.gh.env.GITHUB_TOKEN')).toBeNull()
    await fx.ok('mcp.save', { name: 'gh', previousName: 'github', server: configFile().mcpServers.github })
    expect(fx.app.options.secrets.getSecret?.('mcp.github.env.GITHUB_TOKEN')).toBe('ghp_n3w')

    const removed = await fx.ok('mcp.remove', { name: 'gh' })
    expect(removed.servers.map((server) => server.name)).toEqual(['renamed'])
    expect(fx.app.options.secrets.getSecret?.('mcp.github.env.GITHUB_TOKEN')).toBeNull()
    expect(await fx.call('mcp.remove', { name: 'gh' })).toMatchObject({ ok: false, error: { code: 'NOT_FOUND' } })
  })

  it('imports from Claude Desktop: new servers in, their env values to the secret store, a conflict only under a new name', async () => {
    fx = await appFixture({ config: { mcpServers: { files: { command: 'fs-mcp', enabled: false } } } })
    const dir = join(fx.userHome, '.config', 'Claude')
    mkdirSync(dir, { recursive: true })
    writeFileSync(
      join(dir, 'claude_desktop_config.json'),
      JSON.stringify({ mcpServers: { github: { command: 'gh-mcp', env: { TOKEN: 'ghp_x' }, enabled: false }, files: { command: 'other-fs', enabled: false } } })
    )
    const preview = await fx.ok('mcp.importPreview', { from: 'claude-desktop' })
    expect(preview.servers.map((server) => [server.name, server.status])).toEqual([
      ['github', 'new'],
      ['files', 'conflict']
    ])
    expect(await fx.call('mcp.import', { from: 'claude-desktop', names: ['github', 'files'] })).toMatchObject({ ok: false, error: { code: 'CONFLICT' } })
    const result = await fx.ok('mcp.import', { from: 'claude-desktop', names: ['github', 'files'], renames: { files: 'files-claude' } })
    expect(result.imported).toEqual(['github', 'files-claude'])
    expect(configFile().mcpServers.github.env).toEqual({ TOKEN: '${secret:mcp.github.env.TOKEN}' })
    expect(fx.app.options.secrets.getSecret?.('mcp.github.env.TOKEN')).toBe('ghp_x')
    // Imported once: now it is the same server.
    expect((await fx.ok('mcp.importPreview', { from: 'claude-desktop' })).servers[0].status).toBe('identical')
  })
})

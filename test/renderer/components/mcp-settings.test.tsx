import { act, fireEvent, screen, within } from '@testing-library/react'
import { describe, expect, it } from 'vitest'
import type { McpList } from '../../../shared/ipc/contract-mcp'
import type { McpServerInfo, McpToolInfo } from '../../../shared/mcp'
import { translator } from '../../../shared/i18n'
import { config, settingsView } from '../helpers/fixtures'
import { renderApp, settle } from '../helpers/render-app'

const tool = (name: string, overrides: Partial<McpToolInfo> = {}): McpToolInfo => ({
  name,
  exposedName: `mcp__everything__${name}`,
  description: `${name} does things`,
  enabled: true,
  autoApprove: false,
  ...overrides
})

function server(name: string, overrides: Partial<McpServerInfo> = {}): McpServerInfo {
  return { name, transport: 'stdio', target: `node ${name}.js`, enabled: true, status: 'ready', tools: [], resourceCount: 0, promptCount: 0, logTail: '', restarts: 0, ...overrides }
}

const ready = server('everything', { tools: [tool('echo'), tool('get-sum', { autoApprove: true })] })
const broken = server('broken', {
  status: 'failed',
  target: '/no/such/program',
  error: { code: 'spawn_failed', message: 'The command "/no/such/program" was not found' },
  logTail: '[cairn] starting\n[cairn] protocol error: spawn ENOENT'
})
const off = server('off', { enabled: false, status: 'disabled' })
const listOf = (servers: McpServerInfo[]): McpList => ({ servers, config: Object.fromEntries(servers.map((s) => [s.name, { command: 'node' }])), keptSecrets: [] })

async function openSettings(extra: Parameters<typeof renderApp>[0] = {}) {
  const harness = await renderApp({
    'mcp.list': listOf([ready, broken, off]),
    'mcp.setEnabled': ({ enabled }) => listOf([ready, broken, { ...off, enabled, status: enabled ? 'starting' : 'disabled' }]),
    'mcp.setTool': listOf([{ ...ready, tools: [tool('echo', { enabled: false }), ready.tools[1]] }, broken, off]),
    'mcp.log': { text: '[cairn] starting\nline two' },
    'mcp.save': (input) => listOf([ready, broken, off, server(input.name, { status: 'starting' })]),
    ...extra
  })
  act(() => harness.app.ui.getState().openSettings('tools'))
  await settle()
  return harness
}

const section = () => screen.getByRole('region', { name: 'Tools (MCP)' })
const row = (name: string) => within(section()).getByText(name, { selector: '.mcp-server-name' }).closest('li') as HTMLElement

describe('Settings → Tools (MCP)', () => {
  it('shows each server’s state: ready with its tools, failed with why and its log, disabled', async () => {
    await openSettings()
    expect(within(row('everything')).getByRole('status').textContent).toBe('Ready, 2 tools')
    const failed = row('broken')
    expect(within(failed).getByRole('status').textContent).toBe('Failed')
    expect(within(failed).getByText('Its program could not be started.')).toBeTruthy()
    expect(within(failed).getByText('The command "/no/such/program" was not found')).toBeTruthy()
    expect(failed.querySelector('.mcp-log-tail')?.textContent).toContain('protocol error: spawn ENOENT')
    expect(within(row('off')).getByRole('status').textContent).toBe('Disabled')
  })

  it('turns a server on, and a tool off, through main; follows mcp.changed live', async () => {
    const harness = await openSettings()
    fireEvent.click(within(row('off')).getByRole('switch', { name: 'Use off' }))
    await settle()
    expect(harness.bridge.callsTo('mcp.setEnabled')).toEqual([{ name: 'off', enabled: true }])

    fireEvent.click(within(row('everything')).getByRole('button', { name: 'Show the tools of everything' }))
    const echo = within(row('everything')).getByRole('checkbox', { name: 'Offer echo to the model' }) as HTMLInputElement
    expect(echo.checked).toBe(true)
    expect((within(row('everything')).getByRole('checkbox', { name: 'Run get-sum without asking' }) as HTMLInputElement).checked).toBe(true)
    fireEvent.click(echo)
    await settle()
    expect(harness.bridge.callsTo('mcp.setTool')).toEqual([{ name: 'everything', tool: 'echo', enabled: false }])
    expect((within(row('everything')).getByRole('checkbox', { name: 'Offer echo to the model' }) as HTMLInputElement).checked).toBe(false)

    act(() => harness.bridge.emit('mcp.changed', { servers: [ready, { ...broken, status: 'starting', error: undefined }, off] }))
    expect(within(row('broken')).getByRole('status').textContent).toBe('Starting…')
  })

  it('shows a server’s log in a dialog, and asks before removing one', async () => {
    const harness = await openSettings({ 'mcp.remove': listOf([ready, off]) })
    fireEvent.click(within(row('broken')).getByRole('button', { name: 'Log' }))
    await settle()
    const log = screen.getByRole('dialog', { name: 'Log of broken' })
    expect(within(log).getByText(/line two/).textContent).toBe('[cairn] starting\nline two')
    fireEvent.click(within(log).getByRole('button', { name: 'Close' }))

    fireEvent.click(within(row('broken')).getByRole('button', { name: 'Remove' }))
    const confirm = screen.getByRole('dialog', { name: 'Remove broken?' })
    fireEvent.click(within(confirm).getByRole('button', { name: 'Remove' }))
    await settle()
    expect(harness.bridge.callsTo('mcp.remove')).toEqual([{ name: 'broken' }])
    expect(within(section()).queryByText('broken', { selector: '.mcp-server-name' })).toBeNull()
  })

  it('adds a program server whose env value is secret by default (sent apart, never in the server JSON)', async () => {
    const harness = await openSettings()
    fireEvent.click(within(section()).getByRole('button', { name: 'Add server' }))
    const form = screen.getByRole('dialog', { name: 'Add an MCP server' })
    fireEvent.click(within(form).getByRole('button', { name: 'Save' }))
    expect(within(form).getByText('Give the server a name.')).toBeTruthy()
    fireEvent.change(within(form).getByLabelText('Name'), { target: { value: 'github' } })
    fireEvent.change(within(form).getByLabelText('Command'), { target: { value: 'npx' } })
    fireEvent.change(within(form).getByLabelText('Arguments'), { target: { value: '-y\n@github/mcp\n' } })
    fireEvent.click(within(form).getByRole('button', { name: 'Add a row' }))
    fireEvent.change(within(form).getByLabelText('Environment variables: Name 1'), { target: { value: 'GITHUB_TOKEN' } })
    const value = within(form).getByLabelText('Environment variables: Value 1') as HTMLInputElement
    expect(value.type).toBe('password')
    fireEvent.change(value, { target: { value: 'ghp_abc' } })
    fireEvent.click(within(form).getByRole('button', { name: 'Save' }))
    await settle()
    expect(harness.bridge.callsTo('mcp.save')).toEqual([{ name: 'github', server: { command: 'npx', args: ['-y', '@github/mcp'], env: {} }, secrets: { env: { GITHUB_TOKEN: 'ghp_abc' } } }])
    expect(screen.queryByRole('dialog')).toBeNull()
    expect(within(row('github')).getByRole('status').textContent).toBe('Starting…')
  })

  it('saves pasted Claude Desktop JSON, refusing a name Cairn has', async () => {
    const harness = await openSettings()
    fireEvent.click(within(section()).getByRole('button', { name: 'Paste JSON' }))
    const dialog = screen.getByRole('dialog', { name: 'Paste MCP server JSON' })
    const text = within(dialog).getByLabelText('JSON')
    fireEvent.change(text, { target: { value: JSON.stringify({ mcpServers: { everything: { command: 'x' } } }) } })
    expect(within(dialog).getByText('Cairn has a server named everything already.')).toBeTruthy()
    expect((within(dialog).getByRole('button', { name: 'Save' }) as HTMLButtonElement).disabled).toBe(true)
    fireEvent.change(text, { target: { value: '{"mcpServers": {"docs": {"type": "http", "url": "https://d.example/mcp", "headers": {"Authorization": "Bearer t"}}}}' } })
    expect(within(dialog).getByText('Servers in it: docs')).toBeTruthy()
    fireEvent.click(within(dialog).getByRole('button', { name: 'Save' }))
    await settle()
    expect(harness.bridge.callsTo('mcp.save')).toEqual([
      { name: 'docs', server: { type: 'http', url: 'https://d.example/mcp', headers: { Authorization: 'Bearer t' } }, secrets: { headers: { Authorization: 'Bearer t' } } }
    ])
  })

  it('imports picked servers from Claude Desktop, a conflicting one only under a new name', async () => {
    const harness = await openSettings({
      'mcp.importPreview': {
        from: 'claude-desktop',
        files: [{ path: '/home/ada/.config/Claude/claude_desktop_config.json', found: true }],
        problems: [],
        servers: [
          { name: 'github', source: '/home/ada/.config/Claude/claude_desktop_config.json', server: { command: 'gh' }, status: 'new' },
          { name: 'everything', source: '/home/ada/.config/Claude/claude_desktop_config.json', server: { command: 'other' }, status: 'conflict' },
          { name: 'bad', source: '/home/ada/.config/Claude/claude_desktop_config.json', server: {}, status: 'invalid', error: 'command: expected string' }
        ]
      },
      'mcp.import': { ...listOf([ready, broken, off]), imported: ['github', 'everything-2'] }
    })
    fireEvent.click(within(section()).getByRole('button', { name: 'Import' }))
    await settle()
    const dialog = screen.getByRole('dialog', { name: 'Import MCP servers' })
    expect((within(dialog).getByRole('checkbox', { name: 'Import github' }) as HTMLInputElement).checked).toBe(true)
    expect((within(dialog).getByRole('checkbox', { name: 'Import bad' }) as HTMLInputElement).disabled).toBe(true)
    expect(within(dialog).getByText('Not valid: command: expected string')).toBeTruthy()
    fireEvent.change(within(dialog).getByLabelText('Import as (everything)'), { target: { value: 'everything-2' } })
    fireEvent.click(within(dialog).getByRole('button', { name: 'Import 2' }))
    await settle()
    expect(harness.bridge.callsTo('mcp.import')).toEqual([{ from: 'claude-desktop', names: ['github', 'everything'], renames: { everything: 'everything-2' } }])
  })

  it('says it in Chinese', async () => {
    await openSettings({ 'settings.get': settingsView({ config: config((c) => (c.ui.language = 'zh-CN')) }) })
    const zh = screen.getByRole('region', { name: '工具（MCP）' })
    expect(within(zh).getByText('就绪，2 个工具')).toBeTruthy()
    expect(within(zh).getByText('无法启动它的程序。')).toBeTruthy()
  })

  it('words a keyed status problem in Chinese, naming the part of the config in Chinese too, and shows a peer’s English as it came', async () => {
    const zh = translator('zh-CN')
    const params = { server: 'github', where: 'the header Authorization', part: 'header', partName: 'Authorization', secret: 'GH_TOKEN' }
    const english = 'The secret "GH_TOKEN" used by the header Authorization of the MCP server "github" is not in Cairn\'s secret store. Save it under that name (Settings → Tools (MCP)) and test the server again.'
    const missing = server('github', { status: 'failed', error: { code: 'secret_missing', message: english, key: 'mcp.secret_not_stored', params } })
    await openSettings({ 'settings.get': settingsView({ config: config((c) => (c.ui.language = 'zh-CN')) }), 'mcp.list': listOf([missing, broken]) })
    const part = screen.getByRole('region', { name: '工具（MCP）' })
    const worded = zh('error.mcp.secret_not_stored', { ...params, where: zh('mcp.where.header', { name: 'Authorization' }) })
    expect(worded).toContain('请求头 Authorization')
    expect(within(part).getByText(worded)).toBeTruthy()
    expect(within(part).getByText('The command "/no/such/program" was not found')).toBeTruthy()
    expect(translator('en')('error.mcp.secret_not_stored', params)).toBe(english)
  })
})

import { existsSync, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { logFileName, MCP_LOG_MAX_BYTES, McpServerLog } from '../../../electron/core/mcp/server-log'
import { parseMcpServerConfig, type McpServerConfig } from '../../../shared/mcp'
import { describeTarget, McpValueError, redactSecrets, resolveServerValues } from '../../../electron/core/mcp/server-env'
import { mcpResultText } from '../../../electron/core/mcp/mcp-tools'

function config(raw: unknown): McpServerConfig {
  const parsed = parseMcpServerConfig(raw)
  if (!parsed.ok) throw new Error(parsed.error)
  return parsed.config
}

describe('MCP server values', () => {
  it('fills secrets and environment variables (Claude Code forms) in env, args and headers, and lists the secrets', () => {
    const stdio = resolveServerValues(
      'github',
      config({ command: '${HOME}/bin/server', args: ['--token', '${secret:gh}', '--region=${REGION:-eu}'], env: { TOKEN: '${secret:gh}', USER: '${env:USER}' } }),
      { resolveSecret: (name) => (name === 'gh' ? 'ghp_secret_value' : null), env: { HOME: '/home/ada', USER: 'ada' } }
    )
    expect(stdio.config).toMatchObject({ command: '/home/ada/bin/server', args: ['--token', 'ghp_secret_value', '--region=eu'], env: { TOKEN: 'ghp_secret_value', USER: 'ada' } })
    expect(stdio.secrets).toContain('ghp_secret_value')
    const remote = resolveServerValues('api', config({ type: 'http', url: 'https://mcp.example.com/mcp', headers: { Authorization: 'Bearer ${secret:api-key}' } }), {
      resolveSecret: () => 'k-123456',
      env: {}
    })
    expect(remote.config).toMatchObject({ headers: { Authorization: 'Bearer k-123456' } })
  })

  it('names a missing secret or variable, never a value', () => {
    const missing = () => resolveServerValues('github', config({ command: 'x', env: { TOKEN: '${secret:gh-token}' } }), { env: {} })
    expect(missing).toThrow(McpValueError)
    expect(missing).toThrow(/"gh-token" used by the variable TOKEN of the MCP server "github"/)
    let caught: unknown
    try {
      resolveServerValues('s', config({ command: 'x', args: ['${NOT_SET}'] }), { env: {} })
    } catch (error) {
      caught = error
    }
    expect(caught).toMatchObject({ code: 'config_invalid', message: expect.stringContaining('NOT_SET') })
  })

  it("never fills in Cairn's own keys and tokens, whatever the config names", () => {
    const env = { CAIRN_SYNC_TOKEN: 'sync-token-value', CAIRN_API_KEY: 'sk-value', CAIRN_SECRET_MCP_OTHER_ENV_TOKEN: 'other-value', HOME: '/home/ada' }
    for (const reference of ['${CAIRN_SYNC_TOKEN}', '${env:CAIRN_API_KEY}', 'Bearer ${CAIRN_SECRET_MCP_OTHER_ENV_TOKEN}', '${OPENAI_API_KEY:-x}']) {
      const resolve = () => resolveServerValues('evil', config({ command: 'x', env: { T: reference } }), { env })
      expect(resolve, reference).toThrow(/gives no MCP server its own keys and tokens, and the variable T of the MCP server "evil" names [A-Z_]+\. .*\$\{secret:NAME\}/)
    }
    expect(resolveServerValues('ok', config({ command: '${HOME}/bin/x' }), { env }).config).toMatchObject({ command: '/home/ada/bin/x' })
    const stores = { env, resolveSecret: () => 'the-sync-token' }
    for (const name of ['sync.token', 'sync.shared.team.token']) {
      const remote = () => resolveServerValues('evil', config({ type: 'http', url: 'https://evil.example/mcp', headers: { A: `Bearer \${secret:${name}}` } }), stores)
      expect(remote, name).toThrow(/gives no MCP server its own keys and tokens/)
    }
  })

  it('shows the target with references unresolved, and redacts secrets from text', () => {
    expect(describeTarget(config({ command: 'npx', args: ['-y', 'server', '${secret:x}'] }))).toBe('npx -y server ${secret:x}')
    expect(redactSecrets('token=abcd1234 and abcd1234', ['abcd1234'])).toBe('token=[secret] and [secret]')
  })
})

describe('MCP tool results as the model reads them', () => {
  it('joins text, names images and audio, includes embedded resource text and lists links', () => {
    const text = mcpResultText({
      content: [
        { type: 'text', text: 'Here you go.' },
        { type: 'image', mimeType: 'image/png', data: 'iVBORw0KGgo=' },
        { type: 'resource', resource: { uri: 'file:///notes.txt', text: 'the notes' } },
        { type: 'resource_link', uri: 'test://static/resource/1', name: 'Resource 1', mimeType: 'text/plain' }
      ]
    })
    expect(text).toBe('Here you go.\n[image: image/png, 8 bytes, not shown]\n[resource file:///notes.txt]\nthe notes\n[resource link: Resource 1 test://static/resource/1 (text/plain)]')
  })

  it('gives the structured result as JSON when there is no text', () => {
    expect(mcpResultText({ content: [], structuredContent: { temperature: 21 } })).toBe('{"temperature":21}')
    expect(mcpResultText({ content: [] })).toBe('(the tool returned nothing)')
  })
})

describe('an MCP server log', () => {
  it('keeps stderr and Cairn lines with secrets redacted, a 20-line tail, and moves to .1 past ~1 MB', () => {
    const dir = mkdtempSync(join(tmpdir(), 'cairn-mcp-log-'))
    try {
      const log = new McpServerLog(dir, 'my server')
      log.setSecrets(['hunter2-secret'])
      log.note('starting')
      log.stderr('password is hunter2-secret\npartial ')
      log.stderr('line\n')
      expect(log.read()).toMatch(/\[cairn\] starting\n.*password is \[secret\]\n.*partial line\n$/)
      const chunk = 'x'.repeat(1000) + '\n'
      for (let i = 0; i < 1100; i++) log.stderr(chunk)
      expect(existsSync(`${log.path}.1`)).toBe(true)
      expect(statSync(log.path).size).toBeLessThan(MCP_LOG_MAX_BYTES)
      expect(readFileSync(`${log.path}.1`, 'utf8')).toContain('[secret]')
      expect(log.tailText().split('\n')).toHaveLength(20)
    } finally {
      rmSync(dir, { recursive: true, force: true })
    }
  })

  it('gives every server its own log file, even names that clean up alike or that Windows reserves', () => {
    expect(logFileName('github')).toBe('github.log')
    const names = ['a.b', 'a_b', 'a b', '../../etc', 'con', 'NUL', '服务']
    const files = names.map(logFileName)
    expect(new Set(files).size).toBe(names.length)
    for (const file of files) expect(file).toMatch(/^[a-zA-Z0-9_-]+\.log$/)
    expect(logFileName('con')).not.toBe('con.log')
  })
})

import { spawn, type ChildProcess } from 'node:child_process'
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { createRequire } from 'node:module'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { pathToFileURL } from 'node:url'
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client'
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { CairnCore } from '../../electron/core/cairn'
import { ConfigStore } from '../../electron/core/config/config-store'
import { ProposalStore } from '../../electron/core/ledger/proposals'
import { runCairn } from '../helpers/run-cli'
import { skillText } from '../helpers/skill-env'

const root = join(__dirname, '..', '..')
const tsxLoader = pathToFileURL(createRequire(__filename).resolve('tsx')).href
const cliArgs = (home: string, ...args: string[]) => ['--import', tsxLoader, join(root, 'electron/cli/index.ts'), '--home', home, 'mcp', 'serve', ...args]

let home: string
let emptyHome: string
beforeEach(async () => {
  home = mkdtempSync(join(tmpdir(), 'cairn-mcp-serve-'))
  emptyHome = mkdtempSync(join(tmpdir(), 'cairn-mcp-serve-user-'))
  const core = await CairnCore.open({ home })
  await core.skills.create({ name: 'deploy-blog', category: 'devops', content: skillText('deploy-blog', 'Deploy the blog') }, { source: 'user' })
  await core.memory.add('memory', 'The deploy key is in 1Password', { write: { source: 'user' } })
  await core.close()
})
afterEach(() => {
  rmSync(home, { recursive: true, force: true })
  rmSync(emptyHome, { recursive: true, force: true })
})

const text = (result: Awaited<ReturnType<Client['callTool']>>) => (result.content as Array<{ text?: string }>).map((part) => part.text ?? '').join('')

describe('cairn mcp serve (stdio)', () => {
  it('serves every tool and the resources to a client that starts it, attributing writes to that client', async () => {
    const transport = new StdioClientTransport({ command: process.execPath, args: cliArgs(home), env: { PATH: process.env.PATH ?? '', HOME: emptyHome }, cwd: root, stderr: 'pipe' })
    let stderr = ''
    transport.stderr?.on('data', (chunk) => (stderr += chunk))
    const client = new Client({ name: 'claude-code', version: '2.0.0' })
    await client.connect(transport)
    try {
      const call = async (name: string, args: Record<string, unknown>) => {
        const result = await client.callTool({ name, arguments: args })
        return { isError: result.isError === true, json: JSON.parse(text(result)) }
      }
      expect(await call('memory_add', { target: 'memory', content: 'The blog lives in ~/code/blog' })).toMatchObject({ isError: false, json: { success: true, proposed: true } })
      expect((await call('memory_read', { target: 'memory' })).json.entries).toEqual(['The deploy key is in 1Password'])
      expect((await call('skills_list', {})).json.skills).toEqual([{ name: 'deploy-blog', category: 'devops', description: 'Deploy the blog' }])
      expect((await call('skill_view', { name: 'deploy-blog' })).json.content).toBe(skillText('deploy-blog', 'Deploy the blog'))
      expect((await call('session_search', {})).json).toMatchObject({ success: true, mode: 'recent', count: 0 })
      expect((await call('learning_propose', { kind: 'memory', target: 'user', content: 'Prefers short answers' })).json).toMatchObject({ proposed: true })
      const badArgs = await client.callTool({ name: 'memory_add', arguments: { target: 'memory' } })
      expect(badArgs.isError).toBe(true)
      expect(text(badArgs)).toMatch(/content/)

      const { resources } = await client.listResources()
      expect(resources.map((resource) => resource.uri).sort()).toEqual(['memory://snapshot', 'skill://deploy-blog'])
      const snapshot = await client.readResource({ uri: 'memory://snapshot' })
      expect((snapshot.contents[0] as { text: string }).text).toContain('1Password')
    } finally {
      await client.close()
    }
    expect(stderr).toMatch(/Cairn MCP server \(stdio\)/)
    expect(readFileSync(join(home, 'memories', 'MEMORY.md'), 'utf8')).not.toContain('~/code/blog')
    const core = await CairnCore.open({ home })
    try {
      // What another agent writes waits in the Inbox under that agent's name.
      expect(new ProposalStore(core.db).list({ states: ['pending'] }).map((proposal) => [proposal.kind, proposal.reviewId, proposal.cause])).toEqual([
        ['memory.add', 'mcp:claude-code', 'suggested'],
        ['memory.add', 'mcp:claude-code', 'untrusted_source']
      ])
    } finally {
      await core.close()
    }
  })

  it('under ask, a write becomes a proposal and MEMORY.md stays as it was', async () => {
    await new ConfigStore(join(home, 'config.json')).update({ learning: { mode: 'ask' } })
    const client = new Client({ name: 'Cursor', version: '1.0.0' })
    await client.connect(new StdioClientTransport({ command: process.execPath, args: cliArgs(home), env: { PATH: process.env.PATH ?? '', HOME: emptyHome }, cwd: root, stderr: 'ignore' }))
    try {
      const result = await client.callTool({ name: 'memory_add', arguments: { target: 'memory', content: 'Uses pnpm' } })
      expect(JSON.parse(text(result))).toMatchObject({ success: true, proposed: true })
    } finally {
      await client.close()
    }
    const core = await CairnCore.open({ home })
    try {
      expect(core.memory.read('memory').entries).toEqual(['The deploy key is in 1Password'])
      expect(core.ledger.list({ limit: 5, kinds: ['memory.add'] }).map((row) => row.source)).toEqual(['user'])
    } finally {
      await core.close()
    }
  })
})

/** Collects a child's stdout until `pattern` matches it (bounded by the test's timeout). */
function waitForOutput(child: ChildProcess, pattern: RegExp): Promise<RegExpMatchArray> {
  return new Promise((resolve, reject) => {
    let out = ''
    let err = ''
    child.stderr!.on('data', (chunk) => (err += chunk))
    child.stdout!.on('data', (chunk) => {
      out += chunk
      const match = out.match(pattern)
      if (match) resolve(match)
    })
    child.once('exit', (code) => reject(new Error(`exited ${code} before printing ${pattern}:\n${out}\n${err}`)))
  })
}

describe('cairn mcp serve --http', () => {
  it('prints the URL with its token and the Claude Code line, serves it, and stops on SIGTERM', async () => {
    const child = spawn(process.execPath, cliArgs(home, '--http', '--port', '0'), { cwd: root, env: { PATH: process.env.PATH, HOME: emptyHome } })
    try {
      const [, url] = await waitForOutput(child, /claude mcp add --transport http cairn "(http:\/\/127\.0\.0\.1:\d+\/mcp\?token=[\w-]+)"/)
      const bare = url.replace(/\?.*/, '')
      expect((await fetch(bare, { method: 'POST', body: '{}', headers: { 'content-type': 'application/json' } })).status).toBe(401)
      const client = new Client({ name: 'Claude Desktop', version: '1.0.0' })
      await client.connect(new StreamableHTTPClientTransport(new URL(url)))
      const result = await client.callTool({ name: 'memory_add', arguments: { target: 'user', content: 'Name: Ada' } })
      expect(JSON.parse(text(result))).toMatchObject({ success: true })
      await client.close()
    } finally {
      const exited = new Promise<number | null>((resolve) => child.once('exit', resolve))
      child.kill('SIGTERM')
      expect(await exited).toBe(0)
    }
    const core = await CairnCore.open({ home })
    try {
      expect(new ProposalStore(core.db).list({ states: ['pending'] })[0]).toMatchObject({ kind: 'memory.add', reviewId: 'mcp:claude-desktop' })
    } finally {
      await core.close()
    }
  })

  it('answers bad options with usage errors', async () => {
    const portWithoutHttp = await runCairn(['--home', home, 'mcp', 'serve', '--port', '9000'])
    expect(portWithoutHttp.code).toBe(2)
    expect(portWithoutHttp.stderr).toMatch(/--port and --token go with --http/)
    const badPort = await runCairn(['--home', home, 'mcp', 'serve', '--http', '--port', 'high'])
    expect(badPort.code).toBe(2)
    expect(badPort.stderr).toMatch(/--port must be a number/)
    const shortToken = await runCairn(['--home', home, 'mcp', 'serve', '--http', '--token', 'abc'])
    expect(shortToken.code).toBe(2)
    expect(shortToken.stderr).toMatch(/at least 16 characters/)
    const shortEnvToken = await runCairn(['--home', home, 'mcp', 'serve', '--http'], { env: { CAIRN_MCP_TOKEN: 'short' } })
    expect(shortEnvToken.code).toBe(2)
    expect(shortEnvToken.stderr).toMatch(/CAIRN_MCP_TOKEN must be at least 16 characters/)
  })

  it('takes the token from CAIRN_MCP_TOKEN, so it never shows in the process list', async () => {
    const token = 'env-token-0123456789abcdef'
    const child = spawn(process.execPath, cliArgs(home, '--http', '--port', '0'), { cwd: root, env: { PATH: process.env.PATH, HOME: emptyHome, CAIRN_MCP_TOKEN: token } })
    try {
      const [, url, printed] = await waitForOutput(child, /URL: (http:\/\/127\.0\.0\.1:\d+\/mcp)\?token=([\w-]+)/)
      expect(printed).toBe(token)
      const post = (authorization: string) => fetch(url, { method: 'POST', body: '{}', headers: { 'content-type': 'application/json', authorization } })
      expect((await post('Bearer wrong-token-0123456789')).status).toBe(401)
      expect((await post(`Bearer ${token}`)).status).toBe(400)
    } finally {
      const exited = new Promise<number | null>((resolve) => child.once('exit', resolve))
      child.kill('SIGTERM')
      expect(await exited).toBe(0)
    }
  })
})

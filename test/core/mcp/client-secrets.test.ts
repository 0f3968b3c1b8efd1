import { readFileSync } from 'node:fs'
import { createServer, type Server } from 'node:http'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { parseMcpServerConfig, type McpServerConfig } from '../../../shared/mcp'
import { runTool } from '../../../electron/core/tools/run-tool'
import { describeTarget, displayUrl, resolveServerValues } from '../../../electron/core/mcp/server-env'
import { allowAll, closeSettledRigs, hostileStdio, settledRig as started, toolNamed as tool, type ManagerRig } from './mcp-fixture'

function config(raw: unknown): McpServerConfig {
  const parsed = parseMcpServerConfig(raw)
  if (!parsed.ok) throw new Error(parsed.error)
  return parsed.config
}

const servers: Server[] = []
afterEach(async () => {
  await closeSettledRigs()
  for (const server of servers.splice(0)) await new Promise((done) => server.close(done))
})

/** An HTTP endpoint that answers every request with an error page quoting the request's credentials back. */
async function echoingEndpoint(): Promise<number> {
  const server = createServer((req, res) => {
    res.writeHead(500, { 'content-type': 'text/plain' }).end(`bad request from ${req.url} with ${req.headers.authorization} and ${req.headers['x-api-key']}`)
  })
  servers.push(server)
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done))
  return (server.address() as { port: number }).port
}

function everythingVisible(rig: ManagerRig, name: string): string {
  const info = rig.manager.list().find((server) => server.name === name)!
  let log = ''
  try {
    log = readFileSync(join(rig.logDir, `${name}.log`), 'utf8')
  } catch {
    // Nothing logged.
  }
  return JSON.stringify(info) + log
}

describe('secrets in an MCP server’s config', () => {
  it('never show in the target: a URL’s user, password and token query are hidden, references stay', () => {
    expect(displayUrl('https://ada:hunter2@mcp.example.com/mcp?token=abc123&region=eu')).toBe('https://***@mcp.example.com/mcp?token=***&region=eu')
    expect(displayUrl('https://mcp.example.com/mcp?api_key=k-1&access_token=t-2')).toBe('https://mcp.example.com/mcp?api_key=***&access_token=***')
    expect(displayUrl('https://mcp.example.com/mcp?token=${secret:tok}')).toBe('https://mcp.example.com/mcp?token=${secret:tok}')
    expect(describeTarget(config({ type: 'http', url: 'https://u:p4ssword@h.example/mcp?key=zzzz' }))).toBe('https://***@h.example/mcp?key=***')
  })

  it('a filled-in value is never expanded again: a secret holding ${HOME} stays literal', () => {
    const resolved = resolveServerValues('s', config({ command: 'x', env: { TOKEN: '${secret:t}' } }), { resolveSecret: () => 'pre-${HOME}-post', env: { HOME: '/home/ada' } })
    expect((resolved.config as { env: Record<string, string> }).env.TOKEN).toBe('pre-${HOME}-post')
  })

  it('counts literal credentials as secrets: credential-named headers and variables, the URL’s password and token', () => {
    const remote = resolveServerValues('r', config({ type: 'http', url: 'https://ada:hunter22@h.example/mcp?token=tok-literal', headers: { Authorization: 'Bearer lit-token-1', 'X-Title': 'Cairn app' } }), { env: {} })
    expect(remote.secrets).toEqual(expect.arrayContaining(['Bearer lit-token-1', 'lit-token-1', 'hunter22', 'tok-literal']))
    expect(remote.secrets).not.toContain('Cairn app')
    const stdio = resolveServerValues('s', config({ command: 'x', env: { GITHUB_TOKEN: 'ghp_literal', LOG_LEVEL: 'debug' } }), { env: {} })
    expect(stdio.secrets).toEqual(['ghp_literal'])
  })

  it('are kept out of the info, the log and the error when a remote server quotes them back', async () => {
    const port = await echoingEndpoint()
    const rig = await started(
      {
        // fetch refuses a URL with credentials, quoting the URL in its error.
        userinfo: { type: 'http', url: `http://admin:pa55word@127.0.0.1:${port}/mcp?token=query-secret-1` },
        quoting: { type: 'http', url: `http://127.0.0.1:${port}/mcp?token=query-secret-4`, headers: { Authorization: 'Bearer ${secret:api}', 'X-API-Key': 'literal-key-2' } }
      },
      { resolveSecret: () => 'stored-secret-3' }
    )
    const [userinfo, quoting] = rig.manager.list()
    expect([userinfo.status, quoting.status]).toEqual(['failed', 'failed'])
    expect(quoting.error?.message).toMatch(/HTTP 500/)
    const visible = everythingVisible(rig, 'userinfo') + everythingVisible(rig, 'quoting')
    for (const secret of ['pa55word', 'query-secret-1', 'stored-secret-3', 'literal-key-2', 'query-secret-4']) expect(visible).not.toContain(secret)
    expect(userinfo.target).toBe(`http://***@127.0.0.1:${port}/mcp?token=***`)
  })

  it('are replaced in a tool’s result and error when a stdio server echoes them', async () => {
    const rig = await started({ echo: hostileStdio('names', { env: { HOSTILE_MODE: 'names', HOSTILE_TOKEN: '${secret:tok}' } }) }, { resolveSecret: () => 'super-secret-value' })
    const answer = (await runTool(tool(rig.manager.conversationTools(), 'mcp__echo__whoami'), {}, allowAll())) as { success: boolean; error: string }
    expect(answer).toEqual({ success: false, error: 'my token is [secret]' })
  })
})

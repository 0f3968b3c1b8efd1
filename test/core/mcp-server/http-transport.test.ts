import { request as httpRequest } from 'node:http'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { ProposalStore } from '../../../electron/core/ledger/proposals'
import { callTool, openMcpFixture, TOKEN, type McpFixture } from './mcp-fixture'

let fx: McpFixture
afterEach(async () => {
  await fx.close()
})

const initialize = JSON.stringify({
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'raw', version: '1' } }
})

function post(url: string, headers: Record<string, string> = {}): Promise<Response> {
  return fetch(url, { method: 'POST', body: initialize, headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...headers } })
}

/** A POST with a Host header fetch would not let us set. */
function postWithHost(port: number, host: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      { host: '127.0.0.1', port, path: '/mcp', method: 'POST', headers: { host, authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json', accept: 'application/json, text/event-stream' } },
      (res) => {
        res.resume()
        resolve(res.statusCode ?? 0)
      }
    )
    req.on('error', reject)
    req.end(initialize)
  })
}

describe('the HTTP transport', () => {
  beforeEach(async () => {
    fx = await openMcpFixture()
  })

  it('listens on 127.0.0.1 at /mcp and wants the token', async () => {
    expect(fx.http.url).toBe(`http://127.0.0.1:${fx.http.port}/mcp`)
    const none = await post(fx.http.url)
    expect(none.status).toBe(401)
    expect(none.headers.get('www-authenticate')).toBe('Bearer')
    expect(((await none.json()) as { error: { message: string } }).error.message).toMatch(/token/)
    expect((await post(fx.http.url, { authorization: 'Bearer wrong-token' })).status).toBe(401)
    expect((await post(`${fx.http.url}?token=wrong`)).status).toBe(401)
    expect((await post(fx.http.url.replace('/mcp', '/other'), { authorization: `Bearer ${TOKEN}` })).status).toBe(404)
  })

  it('works with the token as a Bearer header and as ?token=', async () => {
    for (const auth of ['bearer', 'query'] as const) {
      const client = await fx.connect(`client-${auth}`, auth)
      expect((await callTool(client, 'memory_read', { target: 'user' })).json).toMatchObject({ success: true, entries: [] })
    }
  })

  it('refuses a foreign Origin and a foreign Host, accepts a localhost Origin', async () => {
    const bearer = { authorization: `Bearer ${TOKEN}` }
    const foreign = await post(fx.http.url, { ...bearer, origin: 'https://evil.example' })
    expect(foreign.status).toBe(403)
    expect((await post(fx.http.url, { ...bearer, origin: 'null' })).status).toBe(403)
    expect((await post(fx.http.url, { ...bearer, origin: `http://localhost:5173` })).status).toBe(200)
    expect(await postWithHost(fx.http.port, `evil.example:${fx.http.port}`)).toBe(403)
    expect(await postWithHost(fx.http.port, `localhost:${fx.http.port}`)).toBe(200)
  })
})

describe('sessions', () => {
  it('keeps at most maxSessions: a new one closes the least recently used', async () => {
    fx = await openMcpFixture({ maxSessions: 2 })
    const first = await fx.connect('first')
    const second = await fx.connect('second')
    await callTool(first, 'memory_read', {}) // first is now the most recently used
    const third = await fx.connect('third')
    expect(fx.http.sessionCount()).toBe(2)
    expect((await callTool(first, 'memory_read', {})).isError).toBe(false)
    expect((await callTool(third, 'memory_read', {})).isError).toBe(false)
    await expect(callTool(second, 'memory_read', {})).rejects.toThrow(/Session not found|404/)
  })

  it('attributes each session to its own client', async () => {
    fx = await openMcpFixture()
    const code = await fx.connect('Claude Code')
    const cursor = await fx.connect('Cursor')
    await callTool(code, 'memory_add', { target: 'memory', content: 'Uses Postgres 16' })
    await callTool(cursor, 'memory_add', { target: 'memory', content: 'Lints with eslint' })
    const sources = new ProposalStore(fx.core.db).list({ states: ['pending'] }).map((proposal) => proposal.reviewId)
    expect(sources.sort()).toEqual(['mcp:claude-code', 'mcp:cursor'])
  })
})

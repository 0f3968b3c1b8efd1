import { request as httpRequest } from 'node:http'
import { afterEach, describe, expect, it } from 'vitest'
import { ProposalStore } from '../../../electron/core/ledger/proposals'
import { callTool, openMcpFixture, TOKEN, type McpFixture } from './mcp-fixture'

let fx: McpFixture
afterEach(async () => {
  await fx.close()
})

function initialize(clientName = 'raw'): string {
  return JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: clientName, version: '1' } } })
}

interface RawAnswer {
  status: number
  body: string
  sessionId?: string
}

/** A request with headers fetch would not let us set (Host), straight to the server's port. */
function raw(options: { method?: string; headers?: Record<string, string>; body?: string | Buffer; path?: string }): Promise<RawAnswer> {
  const port = fx.http.port
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      {
        host: '127.0.0.1',
        port,
        path: options.path ?? '/mcp',
        method: options.method ?? 'POST',
        headers: { host: `127.0.0.1:${port}`, 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...options.headers }
      },
      (res) => {
        let body = ''
        res.on('data', (chunk: Buffer) => (body += chunk.toString()))
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body, sessionId: res.headers['mcp-session-id'] as string | undefined }))
      }
    )
    // The server may answer (413) and close before the whole body is sent.
    req.on('error', (error: NodeJS.ErrnoException) => (error.code === 'ECONNRESET' || error.code === 'EPIPE' ? resolve({ status: -1, body: '' }) : reject(error)))
    req.end(options.body)
  })
}

const bearer = { authorization: `Bearer ${TOKEN}` }

describe('the HTTP server under attack', () => {
  it('refuses every Host but 127.0.0.1:<port> and localhost:<port> (DNS rebinding)', async () => {
    fx = await openMcpFixture()
    const port = fx.http.port
    for (const host of [`localhost.evil.com:${port}`, `127.0.0.1.nip.io:${port}`, `[::1]:${port}`, '127.0.0.1', `127.0.0.1:${port + 1}`, `evil.com:${port}`, `localhost.:${port}`]) {
      const answer = await raw({ headers: { ...bearer, host }, body: initialize() })
      expect({ host, status: answer.status }).toEqual({ host, status: 403 })
    }
    expect((await raw({ headers: { ...bearer, host: `LOCALHOST:${port}` }, body: initialize() })).status).toBe(200)
  })

  it('refuses foreign and opaque Origins, also on a preflight OPTIONS, and never hands out CORS headers', async () => {
    fx = await openMcpFixture()
    for (const origin of ['null', 'http://localhost.evil.com', 'https://127.0.0.1.evil.com', 'file://', 'chrome-extension://abc']) {
      expect((await raw({ headers: { ...bearer, origin }, body: initialize() })).status).toBe(403)
    }
    const preflight = await raw({ method: 'OPTIONS', headers: { origin: 'https://evil.example', 'access-control-request-method': 'POST', 'access-control-request-headers': 'authorization' } })
    expect(preflight.status).toBe(403)
    const local = await fetch(fx.http.url, { method: 'POST', body: initialize(), headers: { ...bearer, origin: 'http://localhost:3000', 'content-type': 'application/json', accept: 'application/json, text/event-stream' } })
    expect(local.status).toBe(200)
    expect(local.headers.get('access-control-allow-origin')).toBeNull()
  })

  it('refuses a missing, wrong, shorter, longer or prefixed token, in the header and the query', async () => {
    fx = await openMcpFixture()
    const tokens = ['', 'x', TOKEN.slice(0, -1), `${TOKEN}x`, TOKEN.toUpperCase(), `${TOKEN} ${TOKEN}`]
    for (const token of tokens) {
      expect((await raw({ headers: { authorization: `Bearer ${token}` }, body: initialize() })).status).toBe(401)
      expect((await raw({ path: `/mcp?token=${encodeURIComponent(token)}`, body: initialize() })).status).toBe(401)
    }
    expect((await raw({ headers: { authorization: `Basic ${TOKEN}` }, body: initialize() })).status).toBe(401)
    expect((await raw({ body: initialize() })).status).toBe(401)
    expect((await raw({ headers: bearer, body: initialize() })).status).toBe(200)
  })

  it('answers an oversize body with 413 without reading it all, and keeps serving', async () => {
    fx = await openMcpFixture()
    for (const size of [6 * 1024 * 1024, 2 * 1024 * 1024]) {
      const answer = await raw({ headers: bearer, body: Buffer.alloc(size, 0x20) })
      expect([413, -1]).toContain(answer.status)
    }
    const client = await fx.connect()
    expect((await callTool(client, 'memory_read', {})).isError).toBe(false)
  })

  it('answers malformed frames with a clear JSON-RPC error and keeps serving', async () => {
    fx = await openMcpFixture()
    const notJson = await raw({ headers: bearer, body: '{"jsonrpc": "2.0", "method": ' })
    expect(notJson.status).toBe(400)
    expect(JSON.parse(notJson.body)).toMatchObject({ jsonrpc: '2.0', error: { code: -32700, message: expect.stringMatching(/not JSON/) } })
    const notInitialize = await raw({ headers: bearer, body: JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'tools/list' }) })
    expect(notInitialize.status).toBe(400)
    expect(JSON.parse(notInitialize.body).error.message).toMatch(/initialize/)
    expect((await raw({ headers: bearer, body: '[]' })).status).toBe(400)
    expect((await raw({ headers: bearer, body: 'null' })).status).toBe(400)

    const opened = await raw({ headers: bearer, body: initialize() })
    expect(opened.sessionId).toBeTruthy()
    const inSession = { ...bearer, 'mcp-session-id': opened.sessionId!, 'mcp-protocol-version': '2025-06-18' }
    const garbage = await raw({ headers: inSession, body: 'garbage' })
    expect(garbage.status).toBeGreaterThanOrEqual(400)
    expect(garbage.status).toBeLessThan(500)
    const wrongShape = await raw({ headers: inSession, body: JSON.stringify({ hello: 'world' }) })
    expect(wrongShape.status).toBeGreaterThanOrEqual(400)
    expect(wrongShape.status).toBeLessThan(500)
    const client = await fx.connect()
    expect((await callTool(client, 'memory_read', {})).isError).toBe(false)
  })

  it('keeps sessions bounded even when many clients initialize at once', async () => {
    fx = await openMcpFixture({ maxSessions: 3 })
    const answers = await Promise.all(Array.from({ length: 12 }, (_, i) => raw({ headers: bearer, body: initialize(`client ${i}`) })))
    expect(answers.every((answer) => answer.status === 200)).toBe(true)
    expect(fx.http.sessionCount()).toBeLessThanOrEqual(3)
    const client = await fx.connect()
    expect((await callTool(client, 'memory_read', {})).isError).toBe(false)
    expect(fx.http.sessionCount()).toBeLessThanOrEqual(3)
  })

  it('turns a client name with control characters, or 10 KB of it, into a short clean source', async () => {
    fx = await openMcpFixture()
    const evil = await fx.connect('Evil\u0000\u001b[31mAgent\n\u202eedoC\u200b')
    await callTool(evil, 'memory_add', { target: 'memory', content: 'Uses Postgres 16' })
    const long = await fx.connect('A'.repeat(10_000))
    await callTool(long, 'memory_add', { target: 'memory', content: 'Lints with eslint' })
    const unnamed = await fx.connect('\u0000\u0001 --- \u200b')
    await callTool(unnamed, 'memory_add', { target: 'memory', content: 'Deploys on Fridays' })
    const sources = new ProposalStore(fx.core.db).list({ states: ['pending'] }).map((proposal) => proposal.reviewId)
    expect(sources.sort()).toEqual([`mcp:${'a'.repeat(40)}`, 'mcp:evil-31magent-edoc', 'mcp:unknown'])
    for (const source of sources) expect(source).toMatch(/^mcp:[a-z0-9-]{1,40}$/)
  })

  it('never writes a token from the query into its error log, even when a malformed Host makes the URL unreadable', async () => {
    const errors: string[] = []
    fx = await openMcpFixture({ onError: (error) => errors.push(error.message) })
    for (const host of ['a b', '[::1', '%']) {
      const answer = await raw({ path: `/mcp?token=${TOKEN}&x=1`, headers: { host }, body: initialize() })
      expect(answer.status).toBeGreaterThanOrEqual(400)
      const guessed = await raw({ path: '/mcp?token=guessed-token-42', headers: { host }, body: initialize() })
      expect(guessed.status).toBeGreaterThanOrEqual(400)
    }
    expect(errors.length).toBeGreaterThan(0)
    for (const message of errors) {
      expect(message).not.toContain(TOKEN)
      expect(message).not.toContain('guessed-token-42')
    }
    const client = await fx.connect()
    expect((await callTool(client, 'memory_read', {})).isError).toBe(false)
  })
})

import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs'
import { request as httpRequest } from 'node:http'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import WebSocket from 'ws'
import { startWebServer, type RunningWebServer } from '../../electron/serve/web-server'
import { appFixture, type AppFixture } from '../helpers/app-fixture'

let fx: AppFixture
let server: RunningWebServer
let rendererDir: string

beforeEach(async () => {
  fx = await appFixture()
  rendererDir = mkdtempSync(join(tmpdir(), 'cairn-renderer-'))
  mkdirSync(join(rendererDir, 'assets'))
  writeFileSync(join(rendererDir, 'index.html'), '<!doctype html><title>Cairn</title>')
  writeFileSync(join(rendererDir, 'quick.html'), '<!doctype html><title>Quick</title>')
  writeFileSync(join(rendererDir, 'assets', 'app.js'), 'console.log(1)')
  writeFileSync(join(tmpdir(), 'cairn-outside.txt'), 'secret')
  server = await startWebServer({ app: fx.app, rendererDir, port: 0 })
})
afterEach(async () => {
  await server.close()
  await fx.close()
})

const base = () => `http://127.0.0.1:${server.port}`
const token = () => new URL(server.url).hash.replace('#token=', '')

function rawStatus(path: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = httpRequest({ host: '127.0.0.1', port: server.port, path, method: 'GET' }, (res) => {
      res.resume()
      resolve(res.statusCode ?? 0)
    })
    req.on('error', reject)
    req.end()
  })
}

function connect(query: string, headers: Record<string, string> = {}): Promise<WebSocket> {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(`ws://127.0.0.1:${server.port}/ws?${query}`, { headers })
    ws.once('open', () => resolve(ws))
    ws.once('error', reject)
    ws.once('unexpected-response', (_req, res) => reject(new Error(`HTTP ${res.statusCode}`)))
  })
}

function request(ws: WebSocket, id: number, route: string, input?: unknown): Promise<{ ok: boolean; data?: unknown; error?: { code: string } }> {
  return new Promise((resolve) => {
    const onMessage = (data: WebSocket.RawData) => {
      const frame = JSON.parse(String(data))
      if (frame.type === 'response' && frame.id === id) {
        ws.off('message', onMessage)
        resolve(frame.result)
      }
    }
    ws.on('message', onMessage)
    ws.send(JSON.stringify({ type: 'request', id, route, input }))
  })
}

/** The payload of the next event frame with this name (the test fails by timing out if none comes). */
function nextEvent(ws: WebSocket, name: string): Promise<unknown> {
  return new Promise((resolve) => {
    const onMessage = (data: WebSocket.RawData) => {
      const frame = JSON.parse(String(data))
      if (frame.type === 'event' && frame.name === name) {
        ws.off('message', onMessage)
        resolve(frame.payload)
      }
    }
    ws.on('message', onMessage)
  })
}

describe('cairn serve', () => {
  it('listens on 127.0.0.1 and prints a URL that carries the token in the fragment', () => {
    expect(server.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/#token=[\w-]{20,}$/)
    expect(server.quickUrl).toMatch(/\/quick\.html#token=/)
  })

  it('serves the built renderer with a strict CSP and nothing outside it', async () => {
    const page = await fetch(`${base()}/`)
    expect(page.status).toBe(200)
    expect(page.headers.get('content-security-policy')).toContain("script-src 'self'")
    expect(await page.text()).toContain('<title>Cairn</title>')
    expect((await fetch(`${base()}/assets/app.js`)).headers.get('content-type')).toMatch(/javascript/)
    expect((await fetch(`${base()}/../cairn-outside.txt`)).status).toBe(404)
    expect((await fetch(`${base()}/%2e%2e/%2e%2e/cairn-outside.txt`)).status).toBe(404)
    expect((await fetch(`${base()}/`, { method: 'POST' })).status).toBe(405)
    // A raw request line, unnormalised by any client: encoded dot segments must not escape the folder.
    for (const path of ['/..%2F..%2Fcairn-outside.txt', '/%2e%2e/%2e%2e/%2e%2e/etc/passwd', '/assets/..%5C..%5Ccairn-outside.txt']) {
      expect(await rawStatus(path), path).toBe(404)
    }
    // A malformed escape is a bad request, not a crash of the server.
    expect(await rawStatus('/%E0%A4%A')).toBe(400)
    expect((await fetch(`${base()}/`)).status).toBe(200)
  })

  it('refuses a WebSocket without the token or from another origin', async () => {
    await expect(connect('token=wrong')).rejects.toThrow(/403/)
    await expect(connect('')).rejects.toThrow(/403/)
    await expect(connect(`token=${token()}`, { Origin: 'http://evil.example' })).rejects.toThrow(/403/)
  })

  it('answers requests through the same contract and pushes events', async () => {
    const ws = await connect(`token=${token()}`, { Origin: base() })
    const info = await request(ws, 1, 'app.info')
    expect(info).toMatchObject({ ok: true, data: { mode: 'browser', home: fx.home } })
    expect(await request(ws, 2, 'no.such.route')).toMatchObject({ ok: false, error: { code: 'ROUTE_NOT_FOUND' } })
    const pushed = Promise.all([nextEvent(ws, 'ledger.changed'), nextEvent(ws, 'memory.changed')])
    expect(await request(ws, 3, 'memory.add', { target: 'user', content: 'Uses a standing desk.' })).toMatchObject({ ok: true, data: { success: true } })
    const [ledgerChanged] = await pushed
    expect(ledgerChanged).toMatchObject({ entry: { kind: 'memory.add', after: 'Uses a standing desk.' } })
    ws.close()
  })

  it('gives the quick-prompt page (?window=quick) only the quick window’s routes', async () => {
    const ws = await connect(`token=${token()}&window=quick`, { Origin: base() })
    expect(await request(ws, 1, 'app.info')).toMatchObject({ ok: true, data: { mode: 'browser' } })
    expect(await request(ws, 2, 'settings.setApiKey', { apiKey: 'sk-from-quick' })).toMatchObject({ ok: false, error: { code: 'FORBIDDEN_ROUTE' } })
    expect(await request(ws, 3, 'memory.add', { target: 'user', content: 'Planted.' })).toMatchObject({ ok: false, error: { code: 'FORBIDDEN_ROUTE' } })
    expect(fx.core.ledger.list()).toEqual([])
    ws.close()
  })
})

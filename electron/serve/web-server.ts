import { randomBytes, timingSafeEqual } from 'node:crypto'
import { createReadStream, existsSync, statSync } from 'node:fs'
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import { extname, join, normalize, sep } from 'node:path'
import { WebSocketServer, type WebSocket } from 'ws'
import type { IpcContext } from '../../shared/ipc/contract'
import { ipcErrorShape, type IpcResult } from '../../shared/ipc/define'
import { readRequestFrame, type EventFrame, type ResponseFrame } from '../../shared/ipc/ws-frames'
import { MAX_TOTAL_ATTACHMENT_BYTES } from '../../shared/attachments'
import type { CairnApp } from '../core/app/cairn-app'
import { dispatch } from '../core/app/router'

export interface WebServerOptions {
  app: CairnApp
  /** The built renderer (`out/renderer`). */
  rendererDir: string
  port?: number
}

export interface RunningWebServer {
  /** What to open: includes the access token in the URL fragment (never sent to the server in logs). */
  url: string
  quickUrl: string
  port: number
  close(): Promise<void>
}

const CONTENT_TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.woff2': 'font/woff2',
  '.json': 'application/json'
}

const CSP = "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; connect-src 'self'; object-src 'none'; base-uri 'none'; frame-ancestors 'none'"

/**
 * Browser mode: serves the built renderer and the same request/event contract as the desktop app
 * over a WebSocket, on 127.0.0.1 only, behind a random token that only the printed URL carries.
 */
export async function startWebServer(options: WebServerOptions): Promise<RunningWebServer> {
  const { app, rendererDir } = options
  if (!existsSync(join(rendererDir, 'index.html'))) {
    throw new Error(`The renderer is not built (${join(rendererDir, 'index.html')} is missing). Run "npm run build" first.`)
  }
  const token = randomBytes(24).toString('base64url')
  const http = createServer((req, res) => serveStatic(rendererDir, req, res))
  // Room for a message's attachments as base64 (see MAX_TOTAL_ATTACHMENT_BYTES), plus the rest of the request.
  const wss = new WebSocketServer({ noServer: true, maxPayload: Math.ceil(MAX_TOTAL_ATTACHMENT_BYTES / 3) * 4 + 4 * 1024 * 1024 })
  const sockets = new Set<WebSocket>()

  http.on('upgrade', (req, socket, head) => {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1')
    const origin = req.headers.origin
    const expectedOrigin = `http://127.0.0.1:${(http.address() as AddressInfo).port}`
    if (url.pathname !== '/ws' || !sameToken(url.searchParams.get('token'), token) || (origin && origin !== expectedOrigin)) {
      socket.write('HTTP/1.1 403 Forbidden\r\nConnection: close\r\n\r\n')
      socket.destroy()
      return
    }
    wss.handleUpgrade(req, socket, head, (ws) => wss.emit('connection', ws, req))
  })

  wss.on('connection', (ws: WebSocket, req: IncomingMessage) => {
    sockets.add(ws)
    const sender: IpcContext['sender'] = new URL(req.url ?? '/', 'http://127.0.0.1').searchParams.get('window') === 'quick' ? 'quick' : 'browser'
    // A frame the protocol forbids (unmasked, invalid UTF-8, over maxPayload, a reserved opcode or bit):
    // ws has already closed this socket with the RFC 6455 code (1002, 1007, 1009). Without a listener its
    // error would be uncaught and end the whole server.
    ws.on('error', () => {})
    ws.on('message', (data, isBinary) => {
      if (isBinary) return ws.close(1003, 'frames must be JSON text')
      const read = readRequestFrame(String(data))
      if (!read.ok) return sendFrame(ws, { type: 'response', id: read.id, result: { ok: false, error: read.error } })
      const { id, route, input } = read.frame
      void dispatch(app.handlers, route, input, { sender })
        .catch((error: unknown): IpcResult<unknown> => ({ ok: false, error: { code: 'INTERNAL', message: (error as Error)?.message ?? String(error) } }))
        .then((result) => sendFrame(ws, { type: 'response', id, result }))
    })
    ws.on('close', () => sockets.delete(ws))
  })

  const unsubscribe = app.events.on((event) => {
    const frame: EventFrame = { type: 'event', name: event.name, payload: event.payload }
    const text = JSON.stringify(frame)
    for (const ws of sockets) if (ws.readyState === ws.OPEN) ws.send(text)
  })

  await listen(http, options.port ?? 0)
  const port = (http.address() as AddressInfo).port
  const base = `http://127.0.0.1:${port}`
  return {
    url: `${base}/#token=${token}`,
    quickUrl: `${base}/quick.html#token=${token}`,
    port,
    async close() {
      unsubscribe()
      for (const ws of sockets) ws.terminate()
      wss.close()
      await new Promise<void>((resolve) => http.close(() => resolve()))
    }
  }
}

/** Sends one answer; an answer that cannot be serialised still reaches the page, as an INTERNAL error. */
function sendFrame(ws: WebSocket, frame: ResponseFrame): void {
  if (ws.readyState !== ws.OPEN) return
  let text: string
  try {
    text = JSON.stringify(frame)
  } catch (error) {
    text = JSON.stringify({ ...frame, result: { ok: false, error: ipcErrorShape('INTERNAL', 'request.unsendable', { detail: (error as Error).message }) } })
  }
  ws.send(text)
}

function listen(server: Server, port: number): Promise<void> {
  return new Promise((resolve, reject) => {
    server.once('error', (error: NodeJS.ErrnoException) =>
      reject(error.code === 'EADDRINUSE' ? new Error(`Port ${port} is already in use. Pick another with --port, or --port 0 for any free port.`) : error)
    )
    server.listen(port, '127.0.0.1', () => resolve())
  })
}

function sameToken(given: string | null, expected: string): boolean {
  if (!given) return false
  const a = Buffer.from(given)
  const b = Buffer.from(expected)
  return a.length === b.length && timingSafeEqual(a, b)
}

function serveStatic(root: string, req: IncomingMessage, res: ServerResponse): void {
  if (req.method !== 'GET' && req.method !== 'HEAD') {
    res.writeHead(405, { Allow: 'GET, HEAD' }).end()
    return
  }
  let pathname: string
  try {
    pathname = decodeURIComponent(new URL(req.url ?? '/', 'http://127.0.0.1').pathname)
  } catch {
    res.writeHead(400, { 'Content-Type': 'text/plain; charset=utf-8' }).end('Bad request')
    return
  }
  const relative = normalize(pathname === '/' ? '/index.html' : pathname).replace(/^([/\\])+/, '')
  const file = join(root, relative)
  if (!file.startsWith(root + sep) || !existsSync(file) || !statSync(file).isFile()) {
    res.writeHead(404, { 'Content-Type': 'text/plain; charset=utf-8' }).end('Not found')
    return
  }
  res.writeHead(200, {
    'Content-Type': CONTENT_TYPES[extname(file)] ?? 'application/octet-stream',
    'Content-Security-Policy': CSP,
    'X-Content-Type-Options': 'nosniff',
    'Referrer-Policy': 'no-referrer',
    'Cache-Control': extname(file) === '.html' ? 'no-store' : 'public, max-age=31536000, immutable'
  })
  if (req.method === 'HEAD') {
    res.end()
    return
  }
  createReadStream(file).pipe(res)
}

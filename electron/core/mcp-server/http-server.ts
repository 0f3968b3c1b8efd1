import { randomUUID } from 'node:crypto'
import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import { toNodeHandler } from '@modelcontextprotocol/node'
import { isInitializeRequest, WebStandardStreamableHTTPServerTransport, type McpServer } from '@modelcontextprotocol/server'
import { checkRequest, newAccessToken } from './http-guard'

const DEFAULT_MAX_SESSIONS = 16
/** A request body is read before its token is checked: kept small (a whole SKILL.md suggestion is 100,000 characters at most). */
const MAX_BODY_BYTES = 1024 * 1024

export interface McpHttpOptions {
  /** A fresh server for each new session (one per connected client). */
  createServer: () => McpServer
  /** 0 picks a free port. */
  port: number
  /** The access token clients must present; a random one when absent. */
  token?: string
  /** Live sessions kept at most; opening one more closes the least recently used. */
  maxSessions?: number
  /** Errors outside any one request (logged by the caller; stdout stays quiet). */
  onError?: (error: Error) => void
}

export interface McpHttpServer {
  /** The endpoint, `http://127.0.0.1:<port>/mcp`. */
  url: string
  /** The endpoint with `?token=` for clients that cannot send headers. */
  urlWithToken: string
  token: string
  port: number
  sessionCount(): number
  close(): Promise<void>
}

interface Session {
  server: McpServer
  transport: WebStandardStreamableHTTPServerTransport
}

/**
 * Cairn's MCP server over Streamable HTTP at `/mcp` on 127.0.0.1 only. Stateful: each client's
 * `initialize` opens a session (its own McpServer, so writes are attributed to that client), named
 * by the `Mcp-Session-Id` the SDK hands out; at most `maxSessions` live at once. Every request passes
 * {@link checkRequest} (path, Host, Origin, token) before MCP sees it.
 */
export async function startMcpHttpServer(options: McpHttpOptions): Promise<McpHttpServer> {
  const token = options.token ?? newAccessToken()
  const maxSessions = options.maxSessions ?? DEFAULT_MAX_SESSIONS
  // Oldest first: a use moves the session to the end.
  const sessions = new Map<string, Session>()
  let port = 0
  // An adapter error can quote the request's URL (a malformed Host header): never its token.
  const reportError = (error: Error) => options.onError?.(new Error(withoutToken(error.message, token)))

  const closeSession = async (id: string): Promise<void> => {
    const session = sessions.get(id)
    if (!session) return
    sessions.delete(id)
    await session.server.close().catch((error: unknown) => reportError(error as Error))
  }

  const openSession = async (request: Request, body: unknown): Promise<Response> => {
    while (sessions.size >= maxSessions) await closeSession(sessions.keys().next().value as string)
    const server = options.createServer()
    const transport: WebStandardStreamableHTTPServerTransport = new WebStandardStreamableHTTPServerTransport({
      sessionIdGenerator: () => randomUUID(),
      onsessioninitialized: (id) => {
        sessions.set(id, { server, transport })
        // Initializes that arrived together all passed the check above: the oldest make room.
        for (const oldest of sessions.keys()) {
          if (sessions.size <= maxSessions) break
          if (oldest !== id) void closeSession(oldest)
        }
      },
      onsessionclosed: (id) => closeSession(id)
    })
    await server.connect(transport)
    const response = await transport.handleRequest(request, { parsedBody: body })
    // An initialize the SDK refused opened no session: nothing may keep its server alive.
    if (!transport.sessionId || !sessions.has(transport.sessionId)) await server.close()
    return response
  }

  const handle = async (request: Request): Promise<Response> => {
    const refused = checkRequest(request, port, token)
    if (refused) return rpcError(refused.status, refused.message, refused.status === 401 ? { 'www-authenticate': 'Bearer' } : {})
    const id = request.headers.get('mcp-session-id')
    if (id) {
      const session = sessions.get(id)
      if (!session) return rpcError(404, 'Session not found (it ended, or the server restarted): initialize again.')
      sessions.delete(id)
      sessions.set(id, session)
      return session.transport.handleRequest(request)
    }
    if (request.method !== 'POST') return rpcError(400, 'Bad request: no Mcp-Session-Id header; open a session with an initialize request first.')
    let body: unknown
    try {
      body = await request.json()
    } catch {
      return rpcError(400, 'Parse error: the request body is not JSON.', {}, -32700)
    }
    if (!isInitializeRequest(body)) return rpcError(400, 'Bad request: no Mcp-Session-Id header; open a session with an initialize request first.')
    return openSession(request, body)
  }

  const nodeHandler = toNodeHandler({ fetch: handle }, { onerror: reportError, maxRequestBodySize: MAX_BODY_BYTES })
  const http = createServer((req, res) => void nodeHandler(req, res))
  await new Promise<void>((resolve, reject) => {
    http.once('error', reject)
    http.listen(options.port, '127.0.0.1', () => {
      http.off('error', reject)
      resolve()
    })
  })
  port = (http.address() as AddressInfo).port
  const url = `http://127.0.0.1:${port}/mcp`
  return {
    url,
    urlWithToken: `${url}?token=${encodeURIComponent(token)}`,
    token,
    port,
    sessionCount: () => sessions.size,
    async close() {
      await Promise.all([...sessions.keys()].map(closeSession))
      // Open event streams would hold the server open.
      http.closeAllConnections()
      await new Promise<void>((resolve) => http.close(() => resolve()))
    }
  }
}

/** `text` with the server's token and any `token=` query value replaced. */
export function withoutToken(text: string, token: string): string {
  return text.split(token).join('***').replace(/([?&]token=)[^&\s#"']*/gi, '$1***')
}

function rpcError(status: number, message: string, headers: Record<string, string> = {}, code = -32000): Response {
  return new Response(JSON.stringify({ jsonrpc: '2.0', error: { code, message }, id: null }), {
    status,
    headers: { 'content-type': 'application/json', ...headers }
  })
}

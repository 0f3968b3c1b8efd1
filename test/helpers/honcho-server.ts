import { createServer, type IncomingMessage, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'

interface StoredMessage {
  id: string
  content: string
  peer_id: string
  session_id: string
  workspace_id: string
  metadata: Record<string, unknown>
  created_at: string
  token_count: number
}

export interface HonchoTestServer {
  url: string
  /** Every request, as `METHOD path`, with the Authorization header it carried. */
  requests: Array<{ method: string; path: string; authorization: string | undefined; body: unknown }>
  messages: StoredMessage[]
  /** Each session's metadata as last given when it was got or created. */
  sessionMetadata: Map<string, Record<string, unknown>>
  /** Answers the next N message writes with this status (a Honcho having a bad minute). */
  failNextWrites(count: number, status?: number): void
  close(): Promise<void>
}

/**
 * A local server speaking the part of Honcho's v3 REST contract `@honcho-ai/sdk` 2.5 calls (read from
 * the SDK: get-or-create workspace, peer and session by POST, messages added in a batch, workspace
 * search), with the Bearer key checked. Search matches words, like Honcho's keyword fallback.
 */
export async function startHonchoServer(options: { apiKey: string }): Promise<HonchoTestServer> {
  const requests: HonchoTestServer['requests'] = []
  const sessionMetadata: HonchoTestServer['sessionMetadata'] = new Map()
  const messages: StoredMessage[] = []
  let failures = 0
  let failStatus = 503
  const now = () => new Date().toISOString()

  const handle = async (req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = []
    for await (const chunk of req) chunks.push(chunk as Buffer)
    const raw = Buffer.concat(chunks).toString('utf8')
    const body: unknown = raw ? JSON.parse(raw) : undefined
    const path = (req.url ?? '').split('?')[0]
    requests.push({ method: req.method ?? '', path, authorization: req.headers.authorization, body })
    const send = (status: number, value: unknown) => {
      res.writeHead(status, { 'Content-Type': 'application/json' })
      res.end(JSON.stringify(value))
    }
    if (req.headers.authorization !== `Bearer ${options.apiKey}`) return send(401, { detail: 'Invalid API key' })
    const args = body as Record<string, unknown> | undefined
    let match: RegExpMatchArray | null
    if (req.method === 'POST' && path === '/v3/workspaces') return send(200, { id: args?.id, metadata: {}, configuration: {}, created_at: now() })
    if (req.method === 'POST' && (match = path.match(/^\/v3\/workspaces\/([^/]+)\/peers$/))) {
      return send(200, { id: args?.id, workspace_id: match[1], metadata: {}, configuration: {}, created_at: now() })
    }
    if (req.method === 'POST' && (match = path.match(/^\/v3\/workspaces\/([^/]+)\/sessions$/))) {
      const metadata = (args?.metadata as Record<string, unknown> | undefined) ?? sessionMetadata.get(String(args?.id)) ?? {}
      if (args?.metadata) sessionMetadata.set(String(args.id), metadata)
      return send(200, { id: args?.id, workspace_id: match[1], metadata, configuration: {}, is_active: true, created_at: now() })
    }
    if (req.method === 'POST' && (match = path.match(/^\/v3\/workspaces\/([^/]+)\/sessions\/([^/]+)\/messages$/))) {
      if (failures > 0) {
        failures--
        return send(failStatus, { detail: 'Service unavailable' })
      }
      const added = ((args?.messages ?? []) as Array<{ peer_id: string; content: string; metadata?: Record<string, unknown> }>).map((message) => ({
        id: `msg_${messages.length + 1}`,
        content: message.content,
        peer_id: message.peer_id,
        session_id: match![2],
        workspace_id: match![1],
        metadata: message.metadata ?? {},
        created_at: now(),
        token_count: message.content.split(/\s+/).length
      }))
      messages.push(...added)
      return send(200, added)
    }
    if (req.method === 'POST' && (match = path.match(/^\/v3\/workspaces\/([^/]+)\/search$/))) {
      const words = String(args?.query ?? '').toLowerCase().match(/[\p{L}\p{N}]{3,}/gu) ?? []
      const scored = messages
        .filter((message) => message.workspace_id === match![1])
        .map((message) => ({ message, hits: words.filter((word) => message.content.toLowerCase().includes(word)).length }))
        .filter((entry) => entry.hits > 0)
        .sort((a, b) => b.hits - a.hits)
      return send(200, scored.slice(0, Number(args?.limit ?? 10)).map((entry) => entry.message))
    }
    return send(404, { detail: `No route ${req.method} ${path}` })
  }

  const server = createServer((req, res) => {
    handle(req, res).catch((error: unknown) => {
      res.writeHead(500, { 'Content-Type': 'application/json' })
      res.end(JSON.stringify({ detail: String(error) }))
    })
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as AddressInfo
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    messages,
    sessionMetadata,
    failNextWrites(count, status = 503) {
      failures = count
      failStatus = status
    },
    close: () => new Promise((resolve) => server.close(() => resolve()))
  }
}

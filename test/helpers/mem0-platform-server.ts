import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'

export interface Mem0PlatformServer {
  url: string
  requests: Array<{ method: string; path: string; authorization: string | undefined; body: unknown }>
  memories: Array<{ id: string; memory: string; user_id: string; metadata?: Record<string, unknown> }>
  close(): Promise<void>
}

/**
 * A local server speaking the part of Mem0's platform API `mem0ai` 3.3's MemoryClient calls (read from
 * the SDK: ping, v3 add and search, v1 delete), with the `Token` key checked. It "extracts" by keeping
 * each user message as a memory and searches by shared words.
 */
export async function startMem0PlatformServer(options: { apiKey: string }): Promise<Mem0PlatformServer> {
  const requests: Mem0PlatformServer['requests'] = []
  const memories: Mem0PlatformServer['memories'] = []
  const server = createServer((req, res) => {
    const chunks: Buffer[] = []
    req.on('data', (chunk: Buffer) => chunks.push(chunk))
    req.on('end', () => {
      const raw = Buffer.concat(chunks).toString('utf8')
      const body = raw ? (JSON.parse(raw) as Record<string, unknown>) : undefined
      const path = (req.url ?? '').split('?')[0]
      requests.push({ method: req.method ?? '', path, authorization: req.headers.authorization, body })
      const send = (status: number, value: unknown) => {
        res.writeHead(status, { 'Content-Type': 'application/json' })
        res.end(JSON.stringify(value))
      }
      if (req.headers.authorization !== `Token ${options.apiKey}`) return send(401, { detail: 'Invalid API key' })
      if (req.method === 'GET' && path === '/v1/ping/') return send(200, { status: 'ok', org_id: 'org', project_id: 'project' })
      if (req.method === 'POST' && path === '/v3/memories/add/') {
        const added = ((body?.messages ?? []) as Array<{ role: string; content: string }>)
          .filter((message) => message.role === 'user')
          .map((message, index) => ({
            id: `mem-${memories.length + index + 1}`,
            memory: message.content,
            user_id: String(body?.user_id),
            ...(body?.metadata ? { metadata: body.metadata as Record<string, unknown> } : {})
          }))
        memories.push(...added)
        return send(200, added.map((memory) => ({ ...memory, event: 'ADD' })))
      }
      if (req.method === 'POST' && path === '/v3/memories/search/') {
        const words = String(body?.query ?? '').toLowerCase().match(/[a-z]{3,}/g) ?? []
        const userId = (body?.filters as { user_id?: string } | undefined)?.user_id
        const results = memories
          .filter((memory) => memory.user_id === userId)
          .map((memory) => ({ ...memory, score: words.filter((word) => memory.memory.toLowerCase().includes(word)).length / Math.max(words.length, 1) }))
          .filter((memory) => memory.score > 0)
          .sort((a, b) => b.score - a.score)
        return send(200, { results })
      }
      const deleting = path.match(/^\/v1\/memories\/([^/]+)\/$/)
      if (req.method === 'DELETE' && deleting) {
        const index = memories.findIndex((memory) => memory.id === deleting[1])
        if (index >= 0) memories.splice(index, 1)
        return send(200, { message: 'Memory deleted successfully!' })
      }
      return send(404, { detail: `No route ${req.method} ${path}` })
    })
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    requests,
    memories,
    close: () => new Promise((resolve) => server.close(() => resolve()))
  }
}

import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client'
import { CairnCore } from '../../../electron/core/cairn'
import { createCairnMcpServer, startMcpHttpServer, type McpHttpServer } from '../../../electron/core/mcp-server'

export const TOKEN = 'test-token-0123456789abcdef'

export interface ToolAnswer {
  isError: boolean
  text: string
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  json: Record<string, any>
}

/** A temp data home served over HTTP on a free port, and SDK clients connected to it. */
export interface McpFixture {
  home: string
  core: CairnCore
  http: McpHttpServer
  /** A client that names itself `name` in its initialize; `auth` picks how it presents the token. */
  connect(name?: string, auth?: 'bearer' | 'query'): Promise<Client>
  close(): Promise<void>
}

export async function openMcpFixture(options: { maxSessions?: number; onError?: (error: Error) => void } = {}): Promise<McpFixture> {
  const home = mkdtempSync(join(tmpdir(), 'cairn-mcp-server-'))
  const core = await CairnCore.open({ home })
  const http = await startMcpHttpServer({ createServer: () => createCairnMcpServer(core, { version: '0.0.0-test' }), port: 0, token: TOKEN, maxSessions: options.maxSessions, onError: options.onError })
  const clients: Client[] = []
  return {
    home,
    core,
    http,
    async connect(name = 'Claude Code', auth = 'bearer') {
      const client = new Client({ name, version: '1.0.0' })
      const transport =
        auth === 'bearer'
          ? new StreamableHTTPClientTransport(new URL(http.url), { requestInit: { headers: { Authorization: `Bearer ${TOKEN}` } } })
          : new StreamableHTTPClientTransport(new URL(http.urlWithToken))
      await client.connect(transport)
      clients.push(client)
      return client
    },
    async close() {
      await Promise.all(clients.map((client) => client.close().catch(() => {})))
      await http.close()
      await core.close()
      rmSync(home, { recursive: true, force: true })
    }
  }
}

/** Calls a tool and reads its JSON answer. */
export async function callTool(client: Client, name: string, args: Record<string, unknown>): Promise<ToolAnswer> {
  const result = await client.callTool({ name, arguments: args })
  const text = (result.content as Array<{ type: string; text?: string }>).map((part) => part.text ?? '').join('')
  let json: ToolAnswer['json'] = {}
  try {
    json = JSON.parse(text)
  } catch {
    // The SDK's own argument errors are plain text.
  }
  return { isError: result.isError === true, text, json }
}

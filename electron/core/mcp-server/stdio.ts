import type { McpServer } from '@modelcontextprotocol/server'
import { StdioServerTransport } from '@modelcontextprotocol/server/stdio'

/**
 * Serves one client over this process's stdin and stdout (nothing else may write to stdout) until
 * the client closes stdin or `stop` is called; resolves once the server has closed.
 */
export async function serveMcpStdio(server: McpServer, stop?: AbortSignal): Promise<void> {
  const closed = new Promise<void>((resolve) => {
    server.server.onclose = resolve
  })
  await server.connect(new StdioServerTransport())
  stop?.addEventListener('abort', () => void server.close(), { once: true })
  await closed
}

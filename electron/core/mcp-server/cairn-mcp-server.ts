import { McpServer } from '@modelcontextprotocol/server'
import { mcpSource } from '../../../shared/ledger'
import type { ServedHome } from './served-home'
import { registerLibraryTools } from './library-tools'
import { registerMemoryTools } from './memory-tools'
import { OutsideLearning } from './outside-learning'
import { registerResources } from './resources'

export interface CairnMcpServerOptions {
  /** Cairn's version, as `serverInfo.version`. */
  version: string
}

const INSTRUCTIONS =
  "Cairn is the user's desktop assistant that learns from their conversations. Through this server you can read what it remembers about the user (memory_read, memory://snapshot, memory_search for its archive too), " +
  "use its skills (skills_list, skill_view, skill://<name>), search its past conversations (session_search), and save or suggest what it should learn (memory_add, memory_replace, learning_propose). " +
  'Writes follow the learning settings the user chose in Cairn; every write is shown to the user as yours, and can be reverted.'

/**
 * One MCP server over a data home, for one connected client: the stdio process has one, the HTTP
 * server one per session. Writes are attributed to that client's `clientInfo.name` as sent in its
 * `initialize` (`mcp:<name>` on the timeline and on proposals).
 */
export function createCairnMcpServer(core: ServedHome, options: CairnMcpServerOptions): McpServer {
  const server = new McpServer({ name: 'cairn', title: 'Cairn', version: options.version }, { instructions: INSTRUCTIONS })
  const learning = new OutsideLearning(core)
  const clientSource = () => mcpSource(server.server.getClientVersion()?.name)
  registerMemoryTools(server, core, learning, clientSource)
  registerLibraryTools(server, core, learning, clientSource)
  registerResources(server, core)
  return server
}

import { createWorkspaceTools } from '../workspace'
import { AgentSession, type AgentHooks } from './agent-session'
import type { AgentHome } from './agent-stores'
import { ChatProvider } from '../provider/provider'
import { resolveProviderSettings } from '../provider/provider-settings'

export interface CreateAgentOptions {
  /** The data home's stores and learning tools (a CairnCore fits). */
  core: AgentHome
  env?: NodeJS.ProcessEnv
  /** The key from the app's encrypted store (read when each turn starts); the CLI leaves it out and uses the environment. */
  apiKey?: string | null | (() => string | null)
  /** Folder for the workspace tools; defaults to config `agent.workspace`, then the current directory. */
  workspace?: string
  sessionId?: string
  source?: string
  autoApprove?: boolean
  hooks?: AgentHooks
}

/** Wires a chat session the same way for the CLI, the app and browser mode. */
export function createAgentSession(options: CreateAgentOptions): AgentSession {
  const { core } = options
  const config = core.config.get()
  // Resolved per turn: a key, model or URL changed in Settings applies to open conversations too.
  const apiKey = options.apiKey
  const provider = () =>
    new ChatProvider(resolveProviderSettings(core.config.get(), options.env ?? process.env, typeof apiKey === 'function' ? apiKey() : apiKey))
  const workspace = options.workspace || config.agent.workspace || process.cwd()
  let session: AgentSession | null = null
  const tools = [...core.learningTools(() => session?.id ?? null), ...createWorkspaceTools({ workspace })]
  session = AgentSession.open({
    stores: core,
    provider,
    tools,
    workspace,
    sessionId: options.sessionId,
    source: options.source,
    autoApprove: options.autoApprove,
    hooks: options.hooks
  })
  return session
}

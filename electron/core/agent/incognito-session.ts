import { MemoryAttachments } from '../attachments/memory-attachments'
import { openStateDb } from '../db/state-db'
import { ChatProvider } from '../provider/provider'
import { environmentKeys, ProviderAccess, type ProviderKeys } from '../provider/provider-access'
import { SessionStore } from '../sessions'
import type { ToolDef } from '../tools/types'
import { createWorkspaceTools } from '../workspace'
import { AgentSession } from './agent-session'
import { releaseFailedModel } from './failed-model'
import type { AgentHome, ConversationStores } from './agent-stores'

/** What an incognito conversation takes from the data home: the settings, where it lives (never written) and the SQLite build. */
export type IncognitoHomeSources = Pick<AgentHome, 'config' | 'nativeBinding'> & { paths: Pick<AgentHome['paths'], 'root'> }

export interface IncognitoOptions {
  core: IncognitoHomeSources
  env?: NodeJS.ProcessEnv
  keys?: ProviderKeys
  /** The folder it works in (the caller checked it); its tools may write there, as in any conversation. */
  workspace: string
  /** The model it answers with; default: the configured one. */
  model?: string
  source: string
  autoApprove?: boolean
  /** The user's MCP tools (servers they chose, like the workspace tools; not Cairn's learned store). */
  mcpTools?: ToolDef[]
}

/** A live incognito conversation and the only place its messages and files exist. */
export interface IncognitoChat {
  session: AgentSession
  /** Its messages, in a database that lives in this process's memory only. */
  sessions: SessionStore
  /** The files attached to its messages, in memory. */
  attachments: MemoryAttachments
  /** Drops everything it held; the conversation cannot be used afterwards. */
  discard(): void
}

/**
 * The one place an incognito conversation is built (CLI, app, browser mode, quick prompt). It gets
 * nothing from the user's learned store: no memory blocks, no skills index or hints, no memory, skill or
 * session_search tool; only the agent's own guidance, the user's instructions and the workspace (and MCP)
 * tools. It has no learning hooks (never reviewed), and its messages go to an in-memory SQLite database
 * with the same migrations (so paging, versions and compression work unchanged) that is gone when it is
 * discarded: nothing reaches state.db, the FTS or meaning indexes, the attachments folder or a sync.
 * Later per-turn recall or memory providers are options of `createAgentSession` only, so an incognito
 * conversation is built without them.
 */
export function createIncognitoSession(options: IncognitoOptions): IncognitoChat {
  const { core } = options
  const db = openStateDb(':memory:', { nativeBinding: core.nativeBinding })
  const sessions = new SessionStore(db)
  const attachments = new MemoryAttachments(db)
  const stores: ConversationStores = {
    config: core.config,
    memory: { forWorkspace: () => ({ loadSnapshot: () => ({ memory: null, user: null }) }) },
    skills: { list: () => [], getUsage: () => null },
    skillFlags: { disabled: () => new Set<string>() },
    sessions,
    attachments
  }
  const env = options.env ?? process.env
  const access = new ProviderAccess(() => core.config.get(), options.keys ?? environmentKeys(env), env)
  let session: AgentSession | null = null
  // Like createAgentSession: resolved per turn, the conversation's model read from its own (in-memory) row.
  const provider = () => {
    const settings = access.chat()
    const chosen = session ? sessions.get(session.id)?.model?.trim() : options.model?.trim()
    return new ChatProvider({ ...settings, model: chosen || settings.model })
  }
  const tools = [...createWorkspaceTools({ workspace: options.workspace, protectedRoots: [core.paths.root] }), ...(options.mcpTools ?? [])]
  session = AgentSession.open({ stores, provider, tools, workspace: options.workspace, source: options.source, autoApprove: options.autoApprove, incognito: true,
    // Its only hook (nothing that learns): after a failed turn it may follow the default model again, like any conversation.
    hooks: {
      onTurnFinished: (summary) => {
        if (summary.reason === 'failed') releaseFailedModel(sessions, summary.sessionId, () => access.chat().model)
      }
    }
  })
  const opened = session
  return {
    session: opened,
    sessions,
    attachments,
    discard() {
      opened.cancel()
      attachments.clear()
      if (db.open) db.close()
    }
  }
}

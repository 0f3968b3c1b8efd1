import { createWorkspaceTools } from '../workspace'
import { AgentSession, type AgentHooks } from './agent-session'
import type { AgentHome } from './agent-stores'
import { MeaningSkillHinter } from './skill-hints-meaning'
import { gateLearningTools, type ChatLearningDeps } from './learning-gate'
import { ProposalStore } from '../ledger/proposals'
import { createMemoryTool, memoryLimitsFrom } from '../memory'
import { createSkillTools } from '../skills'
import { ChatProvider } from '../provider/provider'
import { environmentKeys, ProviderAccess, type ProviderKeys } from '../provider/provider-access'
import type { ToolDef } from '../tools/types'
import type { TurnRecall } from './turn-notes'
import { releaseFailedModel } from './failed-model'

export interface CreateAgentOptions {
  /** The data home's stores and learning tools; with `paths`, the file tools never write inside its root. */
  core: AgentHome
  env?: NodeJS.ProcessEnv
  /**
   * The provider keys (chat, learning for summaries, embedding for search by meaning), asked for as each
   * turn or search starts: the app passes its secret store's; the CLI leaves it out and uses the environment.
   */
  keys?: ProviderKeys
  /**
   * The folder a new session works in (stored with it), and a resumed session that has none stored yet
   * (it is stored then). Defaults to config `agent.workspace`, then the current directory. The caller
   * checks it is a folder the user may work in.
   */
  workspace?: string
  /** Resuming: work in `workspace` from now on (stored with the session) instead of the folder the session has. */
  moveWorkspace?: boolean
  sessionId?: string
  /** The model a new session is started with (stored with it); default: the configured one. */
  model?: string
  source?: string
  autoApprove?: boolean
  hooks?: AgentHooks
  /** The MCP tools this conversation keeps for its whole life (McpManager.conversationTools(): a snapshot). */
  mcpTools?: ToolDef[]
  /** Told when the chat's own memory or skill tool made Inbox proposals (the app announces inbox.changed). */
  onProposed?: (ids: number[]) => void
  /** The active memory provider (recall into each turn, each finished turn sent); left out for an incognito chat. */
  recall?: TurnRecall
}

/** Wires a chat session the same way for the CLI, the app and browser mode. */
export function createAgentSession(options: CreateAgentOptions): AgentSession {
  const { core } = options
  // Resolved per turn: a key or URL changed in Settings applies to open conversations too, and so
  // does the model the conversation was switched to (`sessions.model`, read from the store each turn).
  const env = options.env ?? process.env
  const access = new ProviderAccess(() => core.config.get(), options.keys ?? environmentKeys(env), env)
  let session: AgentSession | null = null
  const provider = () => {
    const settings = access.chat()
    return new ChatProvider({ ...settings, model: conversationModel(core, session?.id ?? options.sessionId, options.model) || settings.model })
  }
  // session_search summaries run on the learning model, like reviews and titles; a failed one falls back to raw messages at once.
  const summaryProvider = () => new ChatProvider({ ...access.learning(), maxRetries: 0 })
  const workspace = sessionWorkspace(options)
  const currentSession = () => session?.id ?? null
  const learningTools = core.learningTools(currentSession, {
      summaries: { provider: summaryProvider },
      // Off (null) unless search.embeddingModel is set; resolved per search so a settings change applies.
      embedder: () => access.embedder(),
      workspace
  })
  const tools = [
    // The chat's memory and skill writes go through the one learning policy (learning-gate.ts).
    ...gateLearningTools(learningTools, chatLearningDeps(core, options.onProposed, workspace), currentSession),
    ...createWorkspaceTools({ workspace, protectedRoots: [core.paths.root] }),
    ...(options.mcpTools ?? [])
  ]
  session = AgentSession.open({
    stores: core,
    provider,
    tools,
    workspace,
    sessionId: options.sessionId,
    source: options.source,
    autoApprove: options.autoApprove,
    hooks: withFailedModelReleased(options.hooks, core.sessions, () => access.chat().model),
    hinter: new MeaningSkillHinter(() => access.embedder()),
    recall: options.recall
  })
  return session
}

/** After a failed turn, the conversation may follow the default model again (failed-model.ts), before the caller's hook runs. */
function withFailedModelReleased(hooks: AgentHooks | undefined, sessions: AgentHome['sessions'], defaultModel: () => string): AgentHooks {
  return {
    ...hooks,
    onTurnFinished(summary) {
      if (summary.reason === 'failed') releaseFailedModel(sessions, summary.sessionId, defaultModel)
      hooks?.onTurnFinished?.(summary)
    }
  }
}

/** What the learning gate needs of the data home, and the chat's own learning tools over a scratch copy. */
function chatLearningDeps(core: AgentHome, onProposed: ((ids: number[]) => void) | undefined, workspace: string): ChatLearningDeps {
  return {
    memory: core.memory.forWorkspace(workspace),
    skills: core.skills,
    protection: { ledger: core.ledger, skills: core.skills, skillFlags: core.skillFlags, memoryPins: core.memoryPins },
    memoryPins: core.memoryPins,
    proposals: new ProposalStore(core.db),
    mode: () => {
      const { learning } = core.config.get()
      return learning.enabled ? learning.mode : 'off'
    },
    dataHome: core.paths.root,
    nativeBinding: core.nativeBinding,
    memoryLimits: () => memoryLimitsFrom(core.config.get().memory),
    makeTools: (stores) => {
      const config = core.config.get()
      const memory = createMemoryTool(stores.memory, { enabled: config.memory.enabled, userProfileEnabled: config.memory.userProfileEnabled, audience: 'chat' }) as ToolDef
      const skills = createSkillTools(stores.skills, { allowCreate: config.learning.allowSkillCreation, viewCountsAsUse: false, audience: 'chat' })
      return new Map([memory, ...skills].map((tool) => [tool.name, tool]))
    },
    onProposed
  }
}

/** The model this conversation answers with: the one stored with it (none: the configured one); a session not made yet starts on the one asked for. */
function conversationModel(core: CreateAgentOptions['core'], sessionId: string | undefined, requested: string | undefined): string {
  if (!sessionId) return requested?.trim() ?? ''
  return core.sessions.get(sessionId)?.model?.trim() ?? ''
}

/**
 * Where the session works: a resumed session where it did (unless moved), a new one where the caller says.
 * When a resumed session's folder changes (moved, or stored for the first time) its system prompt, which
 * names the folder, is dropped so the session composes it again for the new folder.
 */
function sessionWorkspace(options: CreateAgentOptions): string {
  const { core } = options
  const given = options.workspace || core.config.get().agent.workspace || process.cwd()
  const stored = options.sessionId ? core.sessions.get(options.sessionId) : null
  // A session that does not exist is AgentSession.open's error to report.
  if (!stored) return given
  if (stored.workspace && !(options.moveWorkspace && options.workspace)) return stored.workspace
  if (stored.workspace !== given) core.sessions.update(stored.id, { workspace: given, systemPrompt: null })
  return given
}

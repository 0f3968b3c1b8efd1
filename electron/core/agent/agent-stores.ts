import type { AttachmentStore } from '../attachments'
import type { SettingsStore } from '../config/config-store'
import type { MemoryStore } from '../memory'
import type { SessionStore } from '../sessions'
import type { SessionSearchOptions } from '../sessions/session-search-tool'
import type { SkillStore } from '../skills'
import type { SkillFlags } from '../skills/skill-flags'
import type { ToolDef } from '../tools/types'
import type { HomePaths } from '../config/home'
import type { StateDb } from '../db/state-db'
import type { Ledger } from '../ledger/ledger'
import type { MemoryPins } from '../memory/memory-pins'

// The parts of the data home the agent uses, so it depends on these stores rather than on everything an open data home holds.

/** What the system prompt is built from: the settings, the memory snapshot and the skill catalogue with its usage. */
export interface PromptSources {
  config: Pick<SettingsStore, 'get'>
  /** The store scoped to the conversation's workspace, so the prompt carries that project's memory. */
  memory: { forWorkspace(workspacePath: string): Pick<MemoryStore, 'loadSnapshot'> }
  skills: Pick<SkillStore, 'list' | 'getUsage'>
  /** Disabled skills stay out of the index and the hints. */
  skillFlags: Pick<SkillFlags, 'disabled'>
}

/** What one conversation reads and writes: its messages, and the settings (it saves "always allow" command prefixes). */
export interface ConversationStores extends PromptSources {
  config: SettingsStore
  sessions: Pick<SessionStore, 'get' | 'create' | 'update' | 'messages' | 'append' | 'forkAfter' | 'showVersion' | 'versions' | 'markCompacted' | 'setStateKey'>
  /** Files attached to user messages; without it a conversation takes none. */
  attachments?: Pick<AttachmentStore, 'index' | 'contentsOf'>
}

/**
 * What the chat's learning gate (learning-gate.ts) reads beside the stores: who made each skill (the
 * ledger), pins and flags, the proposals table, the data home (its scratch copies live in `tmp/`).
 */
export interface LearningGateSources {
  ledger: Pick<Ledger, 'forSkill'>
  skillFlags: Pick<SkillFlags, 'get' | 'disabled'>
  memoryPins: Pick<MemoryPins, 'list' | 'isPinned'>
  db: StateDb
  paths: Pick<HomePaths, 'root'>
  nativeBinding?: string
}

/** A data home a chat can be opened on: the conversation's stores and the learning tools offered to the model. */
export interface AgentHome extends ConversationStores, LearningGateSources {
  memory: MemoryStore
  skills: SkillStore
  skillFlags: Pick<SkillFlags, 'get' | 'disabled'>
  learningTools(currentSessionId: () => string | null, options?: SessionSearchOptions & { workspace?: string }): ToolDef[]
}

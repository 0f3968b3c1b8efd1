import type { RevertResult } from '../../../shared/ledger'
import type { AgentHome } from '../agent/agent-stores'
import type { AttachmentStore } from '../attachments'
import type { SettingsStore } from '../config/config-store'
import type { HomePaths } from '../config/home'
import type { StateDb } from '../db/state-db'
import type { Ledger } from '../ledger/ledger'
import type { RevertOptions } from '../ledger/revert'
import type { MemoryStore } from '../memory'
import type { MemoryHidden } from '../memory/memory-hidden'
import type { MemoryArchive } from '../memory/memory-archive'
import type { MemoryPins } from '../memory/memory-pins'
import type { SessionStore } from '../sessions'
import type { SkillStore } from '../skills'
import type { SkillFlags } from '../skills/skill-flags'

// The data home as the app's parts see it: each part picks the stores it uses from these.

/** The stores of one data home the app's route handlers and schedules reach, and the timeline's revert. */
export interface AppHome {
  paths: HomePaths
  config: SettingsStore
  db: StateDb
  ledger: Ledger
  memory: MemoryStore
  memoryPins: MemoryPins
  memoryHidden: MemoryHidden
  /** The memory archive below MEMORY.md and USER.md. */
  archive: MemoryArchive
  skills: SkillStore
  skillFlags: SkillFlags
  sessions: SessionStore
  attachments: AttachmentStore
  /** Undoes one ledger row through the store that owns its target (see revertLedgerEntry). */
  revert(id: number, options?: RevertOptions): Promise<RevertResult>
}

/** What the live chats open conversations on: the agent's stores, where a message's attached files are saved, and the title's author mark. */
export interface ChatHome extends AgentHome {
  attachments: Pick<AttachmentStore, 'index' | 'contentsOf' | 'save'>
  sessions: AgentHome['sessions'] & Pick<SessionStore, 'setStateKey' | 'findUnanswered'>
}

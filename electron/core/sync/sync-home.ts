import type { SettingsStore } from '../config/config-store'
import type { HomePaths } from '../config/home'
import type { StateDb } from '../db/state-db'
import type { Ledger } from '../ledger/ledger'
import type { MemoryStore } from '../memory'
import type { MemoryArchive } from '../memory/memory-archive'
import type { SessionStore } from '../sessions'
import type { SkillStore } from '../skills'

// The parts of the data home a sync uses, so the engine depends on these stores rather than on the whole core.

/**
 * What a sync reads and writes: the settings (remote, device, libraries), the data home's folders,
 * the memory and skill stores remote changes are brought in through (the ledger for files no store
 * owns), the conversations summarised for other devices, and state.db (proposals for conflicts).
 */
export interface SyncHome {
  paths: Pick<HomePaths, 'root' | 'sharedSkillsDir'>
  config: Pick<SettingsStore, 'get' | 'update'>
  db: StateDb
  ledger: Pick<Ledger, 'record'>
  memory: Pick<MemoryStore, 'read' | 'rewrite' | 'forLedgerTarget'>
  /** The archive (state.db), synced as `memories/ARCHIVE.jsonl` and merged by entry. */
  archive: MemoryArchive
  skills: Pick<SkillStore, 'create' | 'edit' | 'delete' | 'writeFile' | 'removeFile' | 'refreshPaths' | 'load'>
  sessions: Pick<SessionStore, 'list'>
}

/** What offering a skill to a team library reads: the libraries in the settings and this home's own skills. */
export interface LibraryProposalHome {
  paths: Pick<HomePaths, 'skillsDir'>
  config: Pick<SettingsStore, 'get'>
  skills: Pick<SkillStore, 'list'>
}

import type { RevertResult } from '../../../shared/ledger'
import type { SettingsStore } from '../config/config-store'
import type { HomePaths } from '../config/home'
import type { StateDb } from '../db/state-db'
import type { Ledger } from '../ledger/ledger'
import type { RevertOptions } from '../ledger/revert'
import type { MemoryStore } from '../memory'
import type { MemoryArchive } from '../memory/memory-archive'
import type { SessionStore } from '../sessions'
import type { SkillStore } from '../skills'

// The parts of the data home an import uses, so importers depend on these stores rather than on the whole core.

/**
 * What an import reads and writes: the settings (which stores are on), the memory and skill stores it
 * adds to, the conversations it brings in, and state.db (its batch, skill usage, proposals).
 */
export interface ImportHome {
  paths: Pick<HomePaths, 'root'>
  config: Pick<SettingsStore, 'get'>
  db: StateDb
  memory: ImportMemory & Pick<MemoryStore, 'forWorkspace'>
  /** Where memory that does not fit the core goes (source `imported`). */
  archive: Pick<MemoryArchive, 'add'>
  skills: Pick<SkillStore, 'get' | 'create' | 'writeFile'>
  sessions: Pick<SessionStore, 'create' | 'appendMany' | 'markCompacted'>
  /** The better-sqlite3 binary the data home was opened with: another agent's database is opened the same way. */
  nativeBinding?: string
}

/** A memory store an import writes to: the core's, or a workspace's (its `project`). */
export type ImportMemory = Pick<MemoryStore, 'read' | 'applyBatch' | 'project'>

/** What undoing an import goes through: its ledger rows, reverted one by one, and its batch and conversations in state.db. */
export interface ImportUndoHome {
  db: StateDb
  ledger: Pick<Ledger, 'list'>
  revert(id: number, options?: RevertOptions): Promise<RevertResult>
}

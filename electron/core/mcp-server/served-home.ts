import type { SettingsStore } from '../config/config-store'
import type { HomePaths } from '../config/home'
import type { StateDb } from '../db/state-db'
import type { Ledger } from '../ledger/ledger'
import type { MemoryStore } from '../memory'
import type { MemoryArchive } from '../memory/memory-archive'
import type { MemoryHidden } from '../memory/memory-hidden'
import type { MemoryPins } from '../memory/memory-pins'
import type { SkillStore } from '../skills'
import type { SkillFlags } from '../skills/skill-flags'

/**
 * The data home as Cairn's MCP server serves it to other agents: memory and skills to read, session
 * search, and what decides whether an outside suggestion is applied or waits as a proposal (the
 * learning settings, who made each skill, pins and flags).
 */
export interface ServedHome {
  paths: Pick<HomePaths, 'root'>
  config: Pick<SettingsStore, 'get'>
  db: StateDb
  ledger: Pick<Ledger, 'forSkill'>
  /** Outside memory writes run the memory tool on the store itself. */
  memory: MemoryStore
  memoryPins: Pick<MemoryPins, 'list' | 'isPinned'>
  /** Entries the user hid: never served, and outside writes may not bring them up. */
  memoryHidden: Pick<MemoryHidden, 'list'>
  /** The archive: searched by memory_search (its store is `memory.archived`), its size in memory_read. */
  archive: Pick<MemoryArchive, 'count'>
  skills: Pick<SkillStore, 'list' | 'get' | 'view' | 'getUsage'>
  skillFlags: Pick<SkillFlags, 'get' | 'disabled'>
}

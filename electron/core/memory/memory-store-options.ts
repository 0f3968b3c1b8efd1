import type { BatchChangeRecorder } from '../ledger/recorder'
import type { EntryDating } from './entry-dating'
import type { HiddenEntrySource } from './memory-hidden'
import type { ArchiveSink } from './store-archiving'
import type { ProjectScope } from './project-scope'
import type { MemoryLimits } from './types'

interface MemoryStoreBaseOptions {
  /** The data home; ledger rows name files relative to it (`memories/MEMORY.md`). */
  dataHome: string
  /** The memories folder. */
  dir: string
  /** The ledger: a change's rows are recorded together, or the change is undone. */
  recorder: BatchChangeRecorder
  lockTimeoutMs?: number
  /** When entries were added and last confirmed (state.db); without it no dates are shown or recorded. */
  dating?: EntryDating
  /** Where entries go that a full core cannot take or that leave it; without it a full core refuses, as before. */
  archive?: ArchiveSink
  /** Entries the user hid: left out of everything the model reads, and not written back in other words. */
  hidden?: HiddenEntrySource
  /** The workspace whose project memory the `project` target is (see {@link MemoryStore.forWorkspace}); without it `project` is refused. */
  project?: ProjectScope | null
}

/**
 * Char limits either fixed, or as a function read on every call (the core passes one over its settings,
 * so changing `memory.memoryCharLimit` / `memory.userCharLimit` applies without a restart).
 */
export type MemoryStoreOptions = MemoryStoreBaseOptions &
  (
    | { memoryCharLimit: number; userCharLimit: number; projectCharLimit?: number; limits?: never }
    | { limits: () => MemoryLimits; memoryCharLimit?: never; userCharLimit?: never; projectCharLimit?: never }
  )

/** The limits as a function read on every call, whichever way they were given. */
export function limitsGetter(options: MemoryStoreOptions): () => MemoryLimits {
  if (options.limits) return options.limits
  const fixed: MemoryLimits = { memory: options.memoryCharLimit, user: options.userCharLimit, project: options.projectCharLimit ?? options.memoryCharLimit }
  return () => fixed
}

/** The limits the settings give (config.json `memory`); PROJECT.md's defaults to MEMORY.md's. */
export function memoryLimitsFrom(settings: { memoryCharLimit: number; userCharLimit: number; projectCharLimit?: number }): MemoryLimits {
  return { memory: settings.memoryCharLimit, user: settings.userCharLimit, project: settings.projectCharLimit ?? settings.memoryCharLimit }
}

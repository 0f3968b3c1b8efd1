import type { ArchiveSource } from '../../../shared/archive-names'
import type { WriteContext } from '../../../shared/ledger'
import type { Provenance } from '../../../shared/provenance'
import type { MemoryTarget } from './types'

export type { ArchiveSource }

/** One archived entry as stored. Times are milliseconds since the epoch. */
export interface ArchiveEntry {
  id: number
  target: MemoryTarget
  /** The workspace project it belongs to (projectKeyFor), or null for an entry of no project. */
  projectKey: string | null
  text: string
  source: ArchiveSource
  provenance: Provenance | null
  addedAt: number
  updatedAt: number
  lastRecalledAt: number | null
  recallCount: number
  /** "Don't bring this up": kept and listed, but left out of search (unless asked) and recall. */
  hidden: boolean
}

/** One search hit; a higher `score` is a better match (BM25 for words, cosine similarity for meaning). */
export interface ArchiveHit {
  id: number
  target: MemoryTarget
  projectKey: string | null
  text: string
  source: ArchiveSource
  addedAt: number
  lastRecalledAt: number | null
  hidden: boolean
  score: number
}

export interface ArchiveSearchOptions {
  /** At most this many hits (default 10, at most 100). */
  limit?: number
  /**
   * A string: that project's entries and entries of no project. null: only entries of no project.
   * Left out: every entry.
   */
  projectKey?: string | null
  includeHidden?: boolean
  /** The old texts of replaces: searchable on request, never recalled. */
  includeSuperseded?: boolean
}

export interface ArchiveAddInput {
  target: MemoryTarget
  text: string
  projectKey?: string | null
  /** Default `added`. */
  source?: ArchiveSource
  provenance?: Provenance | null
  /** Who writes it, for its ledger row (default: the user). */
  write?: WriteContext
  /** When (default now); tests and imports pass their own. */
  at?: number
}

export type ArchiveAddResult =
  | { kind: 'added'; entry: ArchiveEntry; ledgerId: number }
  /** The same text is already archived for that store and project: nothing was written. */
  | { kind: 'exists'; entry: ArchiveEntry }
  /** Empty, or the threat scan blocks it (`reason`, English for the model). */
  | { kind: 'refused'; reason: string }

export interface ArchiveListOptions {
  offset?: number
  limit?: number
  target?: MemoryTarget
  /** As in {@link ArchiveSearchOptions}. */
  projectKey?: string | null
}

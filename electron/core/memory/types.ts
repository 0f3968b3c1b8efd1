import type { WriteContext } from '../../../shared/ledger'
import type { TurnState } from '../tools/types'
import type { SimilarityKind } from './similar-entries'

export const memoryTargets = ['memory', 'user', 'project'] as const
export type MemoryTarget = (typeof memoryTargets)[number]

export function isMemoryTarget(value: unknown): value is MemoryTarget {
  return value === 'memory' || value === 'user' || value === 'project'
}

/** The char limit of each store. */
export type MemoryLimits = Record<MemoryTarget, number>

/** How full one store is. `percent` is floored and capped at 100, like the prompt header. */
export interface MemoryUsage {
  current: number
  limit: number
  percent: number
}

/**
 * Who is writing and, for tool calls, the turn whose failure budget the call spends
 * (`ToolContext` satisfies this shape). Without `turn` the consolidation breaker is off.
 */
export interface MemoryCallContext {
  write: WriteContext
  turn?: TurnState
  /** Extra `meta` for the change's ledger rows (an approved Inbox proposal's id). */
  ledgerMeta?: Record<string, unknown>
}

/**
 * `force` lets a replace/remove through the shrink guard (see {@link MemoryStore.replace}); `allowSimilar`
 * lets an add through beside an entry that says nearly the same or the opposite (the user decided so:
 * a restore, an approved proposal, "Add anyway" on the Memory screen).
 */
export interface MemoryMutationOptions {
  force?: boolean
  allowSimilar?: boolean
  /** false: an add that does not fit is refused, as without an archive (the user adding by hand, a move back from the archive). */
  overflow?: boolean
}

/** One entry's dates as the model reads them, beside `current_entries` / `entries` (never inside an entry, so old_text still matches). */
export interface EntryDatesForModel {
  /** `"2026-10-21 (45 days ago)"`, or `"unknown"`. */
  added: string
  /** `"2026-12-02 (3 days ago)"`, or `"never"`. */
  last_confirmed: string
}

/** One item of a batch, as the model sends it (validated per item, so any shape is accepted here). */
export interface MemoryOperation {
  action?: string | null
  content?: string | null
  old_text?: string | null
}

/** A terminal success: it confirms the write and deliberately does not echo the entries. */
export interface MemorySuccess {
  success: true
  done: true
  target: MemoryTarget
  /** `"<pct>% — <current>/<limit> chars"` */
  usage: string
  entry_count: number
  message: string
  /** The add changed nothing: the entry was already there, word for word (it now counts as confirmed). */
  duplicate?: true
  /** Present once usage passes 90%: how full it is and how to consolidate. */
  warning?: string
  note: string
  /** The core was full: the entry (or a batch's adds that did not fit) went to the archive instead. */
  archived?: true
  /** The archive id of a lone add that went there. */
  archive_id?: number
  /** The archive ids of a batch's adds that went there. */
  archive_ids?: number[]
}

export interface MemoryFailure {
  success: false
  error: string
  /** Set by the consolidation breaker: stop calling memory this turn. */
  done?: true
  current_entries?: string[]
  /** One per item of `current_entries`: when it was added and last confirmed. */
  entry_dates?: EntryDatesForModel[]
  /** An add refused beside an entry that says nearly the same or the opposite: that entry, as it reads. */
  similar_entry?: string
  similarity?: SimilarityKind
  /** The call to make instead: replace that entry (old_text = its text) with the new content. */
  suggested_call?: { action: 'replace'; old_text: string; content: string }
  /** `"<current>/<limit>"` */
  usage?: string
  /** 80-char previews of the entries an ambiguous old_text matched. */
  matches?: string[]
  drift_backup?: string
  remediation?: string
}

export type MemoryResult = MemorySuccess | MemoryFailure

/** The `read` action's answer: the live entries (not the frozen snapshot). */
export interface MemoryReadResult {
  success: true
  target: MemoryTarget
  entries: string[]
  /** One per entry: when it was added and last confirmed. */
  entry_dates?: EntryDatesForModel[]
  usage: string
  entry_count: number
  warning?: string
}

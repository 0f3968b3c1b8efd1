import type { WriteContext } from '../../../shared/ledger'
import type { TurnState } from '../tools/types'

export const memoryTargets = ['memory', 'user'] as const
export type MemoryTarget = (typeof memoryTargets)[number]

export function isMemoryTarget(value: unknown): value is MemoryTarget {
  return value === 'memory' || value === 'user'
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

/** `force` lets a replace/remove through the shrink guard (see {@link MemoryStore.replace}). */
export interface MemoryMutationOptions {
  force?: boolean
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
  /** Present once usage passes 90%: how full it is and how to consolidate. */
  warning?: string
  note: string
}

export interface MemoryFailure {
  success: false
  error: string
  /** Set by the consolidation breaker: stop calling memory this turn. */
  done?: true
  current_entries?: string[]
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
  usage: string
  entry_count: number
  warning?: string
}

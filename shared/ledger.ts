import { z } from 'zod'

/** Every kind of learned change. Memory rows hold one entry's text; skill rows hold a whole file. */
export const ledgerKinds = [
  'memory.add',
  'memory.replace',
  'memory.remove',
  'skill.create',
  'skill.patch',
  'skill.edit',
  'skill.delete',
  'skill.file_write',
  'skill.file_remove'
] as const
export type LedgerKind = (typeof ledgerKinds)[number]

/** Who made the change: the chatting agent, the background review, the user by hand, an import, or a revert. */
export const ledgerSources = ['agent', 'review', 'user', 'import', 'revert'] as const
export type LedgerSource = (typeof ledgerSources)[number]

export const ledgerEntrySchema = z.object({
  id: z.number().int(),
  /** ISO 8601 time of the change. */
  at: z.string(),
  kind: z.enum(ledgerKinds),
  /** Path of the changed file relative to the data home, e.g. `memories/USER.md`, `skills/devops/deploy/SKILL.md`. */
  target: z.string(),
  source: z.enum(ledgerSources),
  sessionId: z.string().nullable(),
  /** Review run that wrote the row, so the timeline can group a review's changes. */
  reviewId: z.string().nullable(),
  before: z.string().nullable(),
  after: z.string().nullable(),
  /** Extra facts: skill name, archive path of a deleted skill, the row a revert undid, … */
  meta: z.record(z.string(), z.unknown()),
  /** Id of the row that reverted this one, if any. */
  revertedBy: z.number().int().nullable()
})
export type LedgerEntry = z.infer<typeof ledgerEntrySchema>

/** Where a write comes from; every store write carries one so the ledger can attribute it. */
export interface WriteContext {
  source: LedgerSource
  sessionId?: string | null
  reviewId?: string | null
}

/** A change a store has just made, before the ledger gives it an id and a time. */
export interface LearnedChange {
  kind: LedgerKind
  target: string
  before: string | null
  after: string | null
  meta?: Record<string, unknown>
}

/** Why a revert could not be applied: the target changed since the row was written. */
export interface RevertConflict {
  /** What the ledger row says the target should hold now (its `after`). */
  expected: string | null
  /** What the target actually holds. */
  actual: string | null
}

export type RevertResult =
  | { ok: true; revertEntry: LedgerEntry }
  | { ok: false; error: string; conflict?: RevertConflict }

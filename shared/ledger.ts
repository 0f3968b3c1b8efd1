import { z } from 'zod'
import {
  ledgerSources,
  memoryKinds,
  memoryStores,
  skillKinds,
  type LedgerSource,
  type MemoryKind,
  type MemoryMeta,
  type SkillKind,
  type SkillMeta
} from './ledger-names'

export * from './ledger-names'

/** The id of the row a revert undid (only on rows with source `revert`). */
const revertOf = z.number().int().optional()

/** The fields are described on MemoryMeta and SkillMeta (shared/ledger-names.ts). */
export const memoryMetaSchema = z.object({ store: z.enum(memoryStores), revertOf }) satisfies z.ZodType<MemoryMeta>

export const skillMetaSchema = z.object({
  skill: z.string(),
  category: z.string().nullable(),
  revertOf,
  archivePath: z.string().optional(),
  absorbedInto: z.string().optional(),
  restoredFrom: z.string().nullable().optional(),
  encoding: z.literal('base64').optional()
}) satisfies z.ZodType<SkillMeta>

const entryFields = {
  id: z.number().int(),
  /** ISO 8601 time of the change. */
  at: z.string(),
  /** Path of the changed file relative to the data home, e.g. `memories/USER.md`, `skills/devops/deploy/SKILL.md`. */
  target: z.string(),
  source: z.enum(ledgerSources),
  sessionId: z.string().nullable(),
  /** Review run that wrote the row, so the timeline can group a review's changes. */
  reviewId: z.string().nullable(),
  before: z.string().nullable(),
  after: z.string().nullable(),
  /** Id of the row that reverted this one, if any. */
  revertedBy: z.number().int().nullable()
}

export const memoryLedgerEntrySchema = z.object({ ...entryFields, kind: z.enum(memoryKinds), meta: memoryMetaSchema })
export const skillLedgerEntrySchema = z.object({ ...entryFields, kind: z.enum(skillKinds), meta: skillMetaSchema })
/** A ledger row; its `meta` depends on its kind. */
export const ledgerEntrySchema = z.discriminatedUnion('kind', [memoryLedgerEntrySchema, skillLedgerEntrySchema])
export type MemoryLedgerEntry = z.infer<typeof memoryLedgerEntrySchema>
export type SkillLedgerEntry = z.infer<typeof skillLedgerEntrySchema>
export type LedgerEntry = z.infer<typeof ledgerEntrySchema>

/** Where a write comes from; every store write carries one so the ledger can attribute it. */
export interface WriteContext {
  source: LedgerSource
  sessionId?: string | null
  reviewId?: string | null
}

interface ChangeFields {
  target: string
  before: string | null
  after: string | null
}

/**
 * A change a store has just made, before the ledger gives it an id and a time. The ledger fills in
 * what `meta` leaves out and the target implies (the skill's name and category, the memory file).
 */
export type LearnedChange =
  | (ChangeFields & { kind: MemoryKind; meta?: Partial<MemoryMeta> })
  | (ChangeFields & { kind: SkillKind; meta?: Partial<SkillMeta> })

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

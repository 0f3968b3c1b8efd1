import { z } from 'zod'
import {
  isLedgerSource,
  ledgerKinds,
  ledgerSources,
  memoryKinds,
  memoryStores,
  normalizeLedgerMeta,
  type LedgerKind,
  type LedgerMeta,
  type LedgerSource,
  archiveKinds,
  type ArchiveMeta,
  type McpSource,
  type MemoryKind,
  type MemoryMeta,
  type SkillCreateMeta,
  type SkillDeleteMeta,
  type SkillFileMeta,
  type SkillKind,
  type SkillMeta
} from './ledger-names'
import { archiveSources } from './archive-names'
import { dangerCodes, type ContentDanger } from './dangers'
import { provenanceOrigins, readSourceKinds, type Provenance } from './provenance'
import type { DistributiveOmit } from './type-utils'

export * from './ledger-names'

/** The id of the row a revert undid (only on rows with source `revert`). */
const revertOf = z.number().int().optional()
/** The Inbox proposal whose approval made the change. */
const proposalId = z.number().int().optional()
/** The other device a sync brought the change from. */
const device = z.string().optional()
const readSourceSchema = z.object({ kind: z.enum(readSourceKinds), label: z.string(), tool: z.string().optional(), callId: z.string().optional() })
/** Where the content came from (see shared/provenance.ts). */
export const provenanceSchema = z.object({ origin: z.enum(provenanceOrigins), sources: z.array(readSourceSchema).optional(), evidence: z.array(z.string()).optional() })
const provenance = provenanceSchema.optional()
/** What the change adds that could hurt if followed (see shared/dangers.ts). */
const dangers = z.array(z.object({ code: z.enum(dangerCodes), detail: z.string() })).optional()

/** The fields are described on MemoryMeta, SkillMeta and its per-kind extensions (shared/ledger-names.ts). */
export const memoryMetaSchema = z.object({ store: z.enum(memoryStores), revertOf, proposalId, device, provenance, dangers }) satisfies z.ZodType<MemoryMeta>

export const archiveMetaSchema = z.object({
  store: z.enum(memoryStores),
  archiveSource: z.enum(archiveSources),
  projectKey: z.string().optional(),
  hidden: z.literal(true).optional(),
  revertOf,
  proposalId,
  device,
  provenance,
  dangers
}) satisfies z.ZodType<ArchiveMeta>

const skillMetaFields = { skill: z.string(), category: z.string().nullable(), revertOf, proposalId, device, provenance, dangers }
export const skillMetaSchema = z.object(skillMetaFields) satisfies z.ZodType<SkillMeta>
export const skillCreateMetaSchema = z.object({ ...skillMetaFields, restoredFrom: z.string().optional() }) satisfies z.ZodType<SkillCreateMeta>
export const skillDeleteMetaSchema = z.object({
  ...skillMetaFields,
  archivePath: z.string().nullable(),
  absorbedInto: z.string().optional()
}) satisfies z.ZodType<SkillDeleteMeta>
export const skillFileMetaSchema = z.object({ ...skillMetaFields, encoding: z.literal('base64').optional() }) satisfies z.ZodType<SkillFileMeta>

/** A row's source: one of {@link ledgerSources}, or `mcp:<client>` for another agent's write over MCP. */
export const ledgerSourceSchema = z.union([z.enum(ledgerSources), z.custom<McpSource>((value) => typeof value === 'string' && isLedgerSource(value))])

const entryFields = {
  id: z.number().int(),
  /** ISO 8601 time of the change. */
  at: z.string(),
  /** Path of the changed file relative to the data home, e.g. `memories/USER.md`, `skills/devops/deploy/SKILL.md`. */
  target: z.string(),
  source: ledgerSourceSchema,
  sessionId: z.string().nullable(),
  /** Review run that wrote the row, so the timeline can group a review's changes. */
  reviewId: z.string().nullable(),
  before: z.string().nullable(),
  after: z.string().nullable(),
  /** Id of the row that reverted this one, if any. */
  revertedBy: z.number().int().nullable()
}

/** A ledger row; its `meta` depends on its kind (see LedgerMeta). */
export const ledgerEntrySchema = z.discriminatedUnion('kind', [
  z.object({ ...entryFields, kind: z.enum(memoryKinds), meta: memoryMetaSchema }),
  z.object({ ...entryFields, kind: z.literal('skill.create'), meta: skillCreateMetaSchema }),
  z.object({ ...entryFields, kind: z.enum(['skill.patch', 'skill.edit']), meta: skillMetaSchema }),
  z.object({ ...entryFields, kind: z.literal('skill.delete'), meta: skillDeleteMetaSchema }),
  z.object({ ...entryFields, kind: z.enum(['skill.file_write', 'skill.file_remove']), meta: skillFileMetaSchema }),
  z.object({ ...entryFields, kind: z.enum(archiveKinds), meta: archiveMetaSchema })
])
export type LedgerEntry = z.infer<typeof ledgerEntrySchema>
export type MemoryLedgerEntry = Extract<LedgerEntry, { kind: MemoryKind }>
export type SkillLedgerEntry = Extract<LedgerEntry, { kind: SkillKind }>
export type ArchiveLedgerEntry = Extract<LedgerEntry, { kind: 'archive.add' | 'archive.remove' }>
// Every kind has its row schema above (this line stops compiling when a new kind has none).
ledgerKinds satisfies readonly LedgerEntry['kind'][]

/** A row's kind with its `meta` in that kind's shape (see normalizeLedgerMeta), ready to join the row's other fields. */
export function kindWithMeta(kind: LedgerKind, target: string, raw: unknown): DistributiveOmit<LedgerEntry, keyof typeof entryFields> {
  // normalizeLedgerMeta gives `kind` its own meta; the compiler cannot follow that through a union of kinds.
  return { kind, meta: normalizeLedgerMeta(kind, target, raw) } as DistributiveOmit<LedgerEntry, keyof typeof entryFields>
}

/** Where a write comes from; every store write carries one so the ledger can attribute it. */
export interface WriteContext {
  source: LedgerSource
  sessionId?: string | null
  reviewId?: string | null
  /** For source `sync`: the device whose change this brings in; kept in the row's `meta.device`. */
  device?: string
  /** Where the written content came from; kept in the row's `meta.provenance`. */
  provenance?: Provenance
  /** What the change adds that could hurt if followed (a staged change's reason); kept in `meta.dangers`. */
  dangers?: ContentDanger[]
}

/** What a write's context adds to its row's `meta`: the device a sync brought it from, provenance, dangers. */
export function contextMeta(ctx: WriteContext): Record<string, unknown> {
  return {
    ...(ctx.device ? { device: ctx.device } : {}),
    ...(ctx.provenance ? { provenance: ctx.provenance } : {}),
    ...(ctx.dangers?.length ? { dangers: ctx.dangers } : {})
  }
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
export type LearnedChange = { [K in LedgerKind]: ChangeFields & { kind: K; meta?: Partial<LedgerMeta<K>> } }[LedgerKind]

/** Why a revert could not be applied: the target changed since the row was written. */
export interface RevertConflict {
  /** What the ledger row says the target should hold now (its `after`). */
  expected: string | null
  /** What the target actually holds. */
  actual: string | null
}

/**
 * Why a revert was refused, for the faces to word: the entry does not exist, it was undone already, or
 * the target changed since (then `conflict` holds both texts). Refusals a store explains only in words have none.
 */
export type RevertErrorCode = 'not_found' | 'already_reverted' | 'conflict'

export type RevertResult =
  | { ok: true; revertEntry: LedgerEntry }
  /** `key` (an ErrorKey, checked with isErrorKey where it arrives) and `params` word the refusal; `error` is its English, for logs and --json. */
  | { ok: false; code?: RevertErrorCode; key?: string; params?: Record<string, string | number>; error: string; conflict?: RevertConflict }

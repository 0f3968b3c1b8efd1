import { z } from 'zod'
import { defineRoute } from './define'
import { connectionFailureCodes } from './domain'

/**
 * The search upkeep routes of the contract (spread into `ipcRoutes`): Settings → Search shows how
 * the word index for Chinese/Japanese and search by meaning stand, and fills or pauses the
 * meaning backfill. As data: the renderer words it. Not for the quick window.
 */

const count = z.number().int().min(0)
const progressSchema = z.object({ done: count, total: count })

/** Older messages being given their words (migration 14's backlog, segmented in the background). */
export const wordIndexSchema = z.object({
  /** Null: every message is indexed by word. */
  backlog: progressSchema.nullable(),
  /** The pass runs now (it waits while a chat runs). */
  running: z.boolean()
})
export type WordIndexInfo = z.infer<typeof wordIndexSchema>

/** Why the last fill of search by meaning stopped short: a provider failure's code, or `database` (busy, disk full). */
export const meaningErrorCodes = [...connectionFailureCodes, 'database'] as const
export type MeaningErrorCode = (typeof meaningErrorCodes)[number]

/** Where search by meaning stands (the core's `semanticStatus`, plus the app's background filling). */
export const meaningSchema = z.object({
  state: z.enum(['off', 'unavailable', 'empty', 'ready']),
  /** `search.embeddingModel`, `embeddingBaseURL` (empty = the chat provider's) and `embeddingDimensions` as set. */
  settings: z.object({ model: z.string(), baseURL: z.string(), dimensions: count }),
  /** Where embedding requests go (the chat provider's URL when `settings.baseURL` is empty); empty while off. */
  endpoint: z.string(),
  /** When unavailable: sqlite-vec cannot run here, or failed to load (with its detail). */
  unavailable: z.object({ code: z.enum(['unsupported_platform', 'load_failed']), detail: z.string() }).nullable(),
  /** The index for the current model (null before its first vector). */
  index: z.object({ model: z.string(), dimensions: count, embedded: count, skipped: count }).nullable(),
  /** A fill runs now. */
  filling: z.boolean(),
  /** The user paused the backfill: nothing is embedded until "Fill now" (or a restart). */
  paused: z.boolean(),
  /** "Fill now" was pressed during a chat: filling starts when it ends. */
  waiting: z.boolean(),
  /** Messages handled (embedded or skipped) of all that can be embedded; null until counted. */
  progress: progressSchema.nullable(),
  /** The last fill's failure; null once one succeeds. */
  lastError: z.object({ code: z.enum(meaningErrorCodes), message: z.string(), status: z.number().int().nullable() }).nullable()
})
export type MeaningInfo = z.infer<typeof meaningSchema>

export const searchUpkeepSchema = z.object({ words: wordIndexSchema, meaning: meaningSchema })
export type SearchUpkeep = z.infer<typeof searchUpkeepSchema>

/** Settings → Search's "Test": the embedding settings being edited (each left out = as saved), and a key typed but not saved yet. */
export const embeddingTestInputSchema = z
  .object({
    model: z.string().max(500).optional(),
    baseURL: z.string().max(2000).optional(),
    dimensions: count.max(8192).optional(),
    apiKey: z.string().max(1000).optional()
  })
  .optional()
export type EmbeddingTestInput = z.infer<typeof embeddingTestInputSchema>

/** One short text embedded with those settings: the vector's size, or why it failed (as data: the renderer words it by code). */
export const embeddingTestSchema = z.discriminatedUnion('ok', [
  z.object({ ok: z.literal(true), endpoint: z.string(), model: z.string(), dimensions: count }),
  z.object({ ok: z.literal(false), endpoint: z.string(), model: z.string(), code: z.enum(connectionFailureCodes), message: z.string(), status: z.number().int().nullable() })
])
export type EmbeddingTest = z.infer<typeof embeddingTestSchema>

export const searchRoutes = {
  'search.status': defineRoute({ input: z.void(), output: searchUpkeepSchema }),
  /** Fills search by meaning now (clears a pause and a failure's wait); it starts once no chat runs. While off it fills nothing, and the status says so. */
  'search.fillMeaning': defineRoute({ input: z.void(), output: searchUpkeepSchema }),
  /** Stops the fill after the batch in flight and keeps it paused until "Fill now". */
  'search.pauseMeaning': defineRoute({ input: z.void(), output: searchUpkeepSchema }),
  /** Embeds one short text with the settings being edited (nothing is saved or indexed). */
  'search.testEmbedding': defineRoute({ input: embeddingTestInputSchema, output: embeddingTestSchema })
}

import { z } from 'zod'
import { ledgerEntrySchema } from './ledger'
import { reviewFailureSchema, type ReviewFailure } from './review-failures'
import { reviewOutcomeSchema, type ReviewOutcome } from './review-outcome'
import { sessionEndCauses, type ReviewReason } from './review-reasons'

/**
 * Messages between the host (the chat process) and the background review worker (an Electron
 * utilityProcess in the app, a forked Node child elsewhere). Every frame carries the protocol name
 * and version; either side drops frames it does not understand instead of guessing.
 */
export const REVIEW_PROTOCOL = 'cairn.review'
export const REVIEW_PROTOCOL_VERSION = 1

/** What the review looks at: memory (who the user is, durable facts), skills (procedures), or both. */
export const reviewKindSchema = z.enum(['memory', 'skills'])
export type ReviewKind = z.infer<typeof reviewKindSchema>

/**
 * One message of the conversation, as the review reads it (already flattened to text). A `heading`
 * is no message but a label the learning loop puts between parts of the transcript: a digest of turns
 * already reviewed, or another recent conversation a cross-conversation memory review takes in.
 */
export const reviewMessageSchema = z.object({
  role: z.enum(['user', 'assistant', 'tool', 'summary', 'heading']),
  content: z.string(),
  /** For assistant messages: the tool calls it made, as `name(arguments)`, with the call's id when known. */
  toolCalls: z.array(z.object({ id: z.string().optional(), name: z.string(), arguments: z.string() })).optional(),
  /** For tool messages: which tool produced this result. */
  toolName: z.string().optional(),
  /** For user and tool messages: the stored message's id (provenance; not shown to the review model). */
  messageId: z.number().int().optional(),
  /** For tool messages: the id of the tool call this result answers (provenance; not shown to the review model). */
  toolCallId: z.string().optional(),
  /**
   * For summary messages: a digest of turns an earlier review saw, one `USER: …`, `ASSISTANT…: …` or
   * `SUMMARY: …` line per message (see review-snapshot.ts), which the transcript marks line by line.
   */
  digest: z.boolean().optional()
})
export type ReviewMessage = z.infer<typeof reviewMessageSchema>

/** Why a review runs, as a code with its figures (see review-reasons.ts). */
export const reviewReasonSchema = z.discriminatedUnion('code', [
  z.object({ code: z.literal('memory_interval'), count: z.number().int() }),
  z.object({ code: z.literal('skill_interval'), count: z.number().int() }),
  z.object({ code: z.literal('long_task'), count: z.number().int() }),
  z.object({ code: z.literal('error_overcome'), tool: z.string() }),
  z.object({ code: z.literal('correction') }),
  z.object({ code: z.literal('preference') }),
  z.object({ code: z.literal('compression'), part: z.number().int().nullable(), parts: z.number().int().nullable() }),
  z.object({ code: z.literal('requested') }),
  z.object({ code: z.literal('session_end'), cause: z.enum(sessionEndCauses), turns: z.number().int() }),
  z.object({ code: z.literal('curation') }),
  z.object({ code: z.literal('other'), text: z.string() })
])
// The schema and the zod-free type the renderer uses must describe the same values.
const sameReason: [z.infer<typeof reviewReasonSchema>, ReviewReason] extends [ReviewReason, z.infer<typeof reviewReasonSchema>] ? true : never = true
void sameReason

/** Why reviews stopped starting: the user paused them, or too many failed in a row (with the latest error). */
export const reviewsPausedReasonSchema = z.discriminatedUnion('code', [
  z.object({ code: z.literal('requested') }),
  // `latestFailure`: the latest as data for the faces; `latest`, its English first line (all an older process sends).
  z.object({ code: z.literal('failures'), count: z.number().int(), latest: z.string(), latestFailure: reviewFailureSchema.optional() })
])
export type ReviewsPausedReason = z.infer<typeof reviewsPausedReasonSchema>

export const reviewJobSchema = z.object({
  reviewId: z.string(),
  sessionId: z.string().nullable(),
  kinds: z.array(reviewKindSchema).min(1),
  /** Why the review runs: interval reached, a correction, a long task, before compression, … */
  reasons: z.array(reviewReasonSchema),
  messages: z.array(reviewMessageSchema),
  /** Skills the conversation loaded (skill_view); the review judges whether following them worked. */
  skillsUsed: z.array(z.string()),
  /** The conversation's workspace: its project memory is the review's `project` target (none: `project` is refused). */
  workspace: z.string().optional()
})
export type ReviewJob = z.infer<typeof reviewJobSchema>

export const reviewProviderSchema = z.object({
  baseURL: z.string(),
  model: z.string(),
  apiKey: z.string().nullable(),
  preset: z.string(),
  requestTimeoutMs: z.number(),
  maxRetries: z.number()
})

export const hostMessageSchema = z.discriminatedUnion('type', [
  z.object({
    protocol: z.literal(REVIEW_PROTOCOL),
    version: z.literal(REVIEW_PROTOCOL_VERSION),
    type: z.literal('start'),
    home: z.string(),
    /** Provider settings including the API key: sent here, never through the environment. */
    provider: reviewProviderSchema,
    job: reviewJobSchema,
    limits: z.object({ maxIterations: z.number().int().min(1), timeoutMs: z.number().int().min(1000) }),
    allowSkillCreation: z.boolean(),
    /**
     * The host may exit before the review ends (a one-shot CLI): the worker then finishes on its own,
     * records the ending it reports in `review_runs` itself (saying so in `recorded`) and ignores
     * the host going away.
     */
    detached: z.boolean().default(false),
    /** better-sqlite3 binary for this runtime (the Electron app's own build); the default one otherwise. */
    nativeBinding: z.string().optional()
  }),
  z.object({ protocol: z.literal(REVIEW_PROTOCOL), version: z.literal(REVIEW_PROTOCOL_VERSION), type: z.literal('shutdown') })
])
/** What a host sends (defaults may be left out)… */
export type HostMessage = z.input<typeof hostMessageSchema>
/** …and what the worker reads after parsing (defaults filled in). */
export type ParsedHostMessage = z.output<typeof hostMessageSchema>

export { reviewOutcomeSchema, type ReviewOutcome }

const workerBase = { protocol: z.literal(REVIEW_PROTOCOL), version: z.literal(REVIEW_PROTOCOL_VERSION), reviewId: z.string() }
/** On an ending (`done`, `error`): the worker wrote it to `review_runs` itself (a detached run), so the host must not. */
const workerRecorded = z.boolean().optional()

export const workerMessageSchema = z.discriminatedUnion('type', [
  z.object({ ...workerBase, type: z.literal('ready'), pid: z.number().int() }),
  z.object({ ...workerBase, type: z.literal('progress'), stage: z.string(), detail: z.string().optional() }),
  z.object({ ...workerBase, type: z.literal('action'), entry: ledgerEntrySchema }),
  z.object({ ...workerBase, type: z.literal('done'), outcome: reviewOutcomeSchema, recorded: workerRecorded }),
  // `failure`: the message as data (optional: an older worker's message is read back from its English).
  z.object({ ...workerBase, type: z.literal('error'), message: z.string(), code: z.string(), failure: reviewFailureSchema.optional(), recorded: workerRecorded })
])
export type WorkerMessage = z.infer<typeof workerMessageSchema>

/** What the host tells the rest of the app about reviews (the CLI prints them, the app shows them). */
export type ReviewEvent =
  | { type: 'review_queued'; reviewId: string; sessionId: string | null; kinds: ReviewKind[]; reasons: ReviewReason[] }
  | { type: 'review_started'; reviewId: string; sessionId: string | null; kinds: ReviewKind[]; reasons: ReviewReason[]; pid: number | null }
  | { type: 'review_progress'; reviewId: string; stage: string; detail?: string }
  | { type: 'review_action'; reviewId: string; entry: z.infer<typeof ledgerEntrySchema> }
  | { type: 'review_finished'; reviewId: string; sessionId: string | null; outcome: ReviewOutcome }
  /** `failure`: why, as data for the faces to word; `error`: the same in English (with the worker's output), for logs. */
  | { type: 'review_failed'; reviewId: string; sessionId: string | null; failure: ReviewFailure; error: string; crashed: boolean }
  /** Three reviews in a row crashed or timed out: learning waits until the user resumes it. */
  | { type: 'reviews_paused'; reason: ReviewsPausedReason }
  | { type: 'reviews_resumed' }

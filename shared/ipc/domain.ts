import { z } from 'zod'
import { MAX_IMAGE_BYTES, attachmentKinds } from '../attachments'
import { configSchema, learningModes } from '../config'
import { ledgerEntrySchema, ledgerKinds, ledgerSourceSchema } from '../ledger'
import { proposalCauses, proposalKinds, proposalOrigins, proposalStates } from '../proposals'
import { reviewKindSchema, reviewReasonSchema, reviewsPausedReasonSchema } from '../review-protocol'
import { reviewFailureSchema } from '../review-failures'
import { reviewSummarySchema } from '../review-outcome'
import type { ReviewFate } from '../review-fate'
import { memoryProviderNames } from '../recall'
import { providerProblemSchema } from './domain-provider'
import { turnFailureSchema } from '../turn-failure'

/** Shapes that cross the IPC boundary, as zod schemas (the renderer imports only their types). */

export const roleSchema = z.enum(['system', 'user', 'assistant', 'tool', 'summary'])

export const sessionSummarySchema = z.object({
  id: z.string(),
  title: z.string().nullable(),
  source: z.string(),
  model: z.string().nullable(),
  startedAt: z.number(),
  updatedAt: z.number(),
  messageCount: z.number().int(),
  inputTokens: z.number().int(),
  outputTokens: z.number().int(),
  cachedTokens: z.number().int(),
  /** The folder the conversation works in; null until a conversation from before workspaces is opened again. */
  workspace: z.string().nullable(),
  /** Listed first in the sidebar. */
  pinned: z.boolean(),
  /** Listed only when the sidebar shows archived conversations; still searchable. */
  archived: z.boolean(),
  /** The user's instructions for this conversation (part of its system prompt); absent when none. */
  instructions: z.string().optional(),
  /** A live incognito conversation: kept in memory only, never listed; absent for every other. */
  incognito: z.literal(true).optional(),
  /** Issue 29 part A: its last turn failed (shown at that turn with Retry; with one message, it is "not answered"). */
  failedTurn: turnFailureSchema.optional()
})
export type SessionSummary = z.infer<typeof sessionSummarySchema>

export const sessionExportFormats = ['md', 'json'] as const
export const sessionExportSchema = z.object({ fileName: z.string(), mimeType: z.string(), text: z.string() })
export type SessionExportFile = z.infer<typeof sessionExportSchema>

export const toolCallSchema = z.object({ id: z.string(), name: z.string(), arguments: z.string() })

/** A file attached to a sent message, as its chip shows it. */
export const attachmentViewSchema = z.object({
  name: z.string(),
  kind: z.enum(attachmentKinds),
  mime: z.string(),
  size: z.number().int(),
  /** Characters of text the model got from a PDF or text file (null for an image). */
  textChars: z.number().int().nullable(),
  /** The text was cut at the limit. */
  truncated: z.boolean()
})
export type AttachmentView = z.infer<typeof attachmentViewSchema>

/** A file sent with a message: read in the renderer, its bytes as base64 (bounded by the largest file allowed). */
export const outgoingAttachmentSchema = z.object({
  name: z.string().min(1).max(255),
  mime: z.string().max(200),
  data: z.string().min(1).max(Math.ceil(MAX_IMAGE_BYTES / 3) * 4)
})
export type OutgoingAttachment = z.infer<typeof outgoingAttachmentSchema>

/** A stored message as the UI shows it (the skill hint Cairn added to a user message is split off). */
export const displayMessageSchema = z.object({
  id: z.number().int(),
  role: roleSchema,
  content: z.string(),
  toolCalls: z.array(toolCallSchema).nullable(),
  toolCallId: z.string().nullable(),
  toolName: z.string().nullable(),
  createdAt: z.number(),
  finishReason: z.string().nullable(),
  compacted: z.boolean(),
  hint: z.string().nullable(),
  /** The model that wrote an answer, when it was recorded. */
  model: z.string().nullable().optional(),
  /** An answer imported from another app: which (`chatgpt`, `claude`, `hermes`…), shown with its model. */
  importedFrom: z.string().max(40).optional(),
  /** Tokens of the model call that produced an answer, as the provider reported them. */
  usage: z.object({ promptTokens: z.number().int(), completionTokens: z.number().int(), cachedTokens: z.number().int() }).nullable().optional(),
  /**
   * Other versions start here (an edited message, an answer made again): which one is shown (1-based)
   * of how many, and the stored versions on either side to switch to (null at either end).
   */
  versions: z
    .object({ position: z.number().int(), total: z.number().int(), previous: z.number().int().nullable(), next: z.number().int().nullable() })
    .nullable()
    .optional(),
  /** Files attached to a user message. */
  attachments: z.array(attachmentViewSchema).optional(),
  /** Memory recalled into a user message's turn, each with the provider that offered it. */
  recalled: z.array(z.object({ provider: z.enum(memoryProviderNames), id: z.string(), text: z.string() })).optional()
})
export type DisplayMessage = z.infer<typeof displayMessageSchema>
export type VersionSwitch = NonNullable<DisplayMessage['versions']>

export const searchHitSchema = z.object({
  sessionId: z.string(),
  title: z.string().nullable(),
  startedAt: z.number(),
  score: z.number(),
  matchMessageId: z.number().int(),
  /** Matches are marked `>>>`…`<<<`; the UI highlights them (never as HTML). */
  snippet: z.string(),
  messages: z.array(
    z.object({ id: z.number().int(), role: roleSchema, content: z.string(), toolName: z.string().nullable(), anchor: z.boolean().optional() })
  )
})
export type SearchHit = z.infer<typeof searchHitSchema>

export const reviewRunSchema = z.object({
  id: z.string(),
  sessionId: z.string().nullable(),
  kinds: z.array(reviewKindSchema),
  reasons: z.array(reviewReasonSchema),
  status: z.enum(['queued', 'running', 'done', 'failed', 'timeout', 'crashed', 'skipped']),
  queuedAt: z.number(),
  startedAt: z.number().nullable(),
  finishedAt: z.number().nullable(),
  /** What a finished review saved; null while it runs, or for an old run whose changes are gone. */
  summary: reviewSummarySchema.nullable(),
  /** Why it did not finish, as data the faces word (absent from older processes: word `error` then). */
  failure: reviewFailureSchema.nullable().optional(),
  /** The same in English with the worker's last output, for logs and diagnostics. */
  error: z.string().nullable(),
  /** The model the review ran on; null for runs recorded before reviews named it. */
  model: z.string().nullable().optional(),
  /** Tokens over all of its model calls, as the provider reported them; null when unknown. */
  promptTokens: z.number().int().nullable().optional(),
  completionTokens: z.number().int().nullable().optional()
})
export type ReviewRun = z.infer<typeof reviewRunSchema>

const count = z.number().int()
/** What became of one review's proposals and changes since (see ReviewFate). */
export const reviewFateSchema = z.object({
  reviewId: z.string(),
  pending: count,
  approved: count,
  rejected: count,
  setAside: count,
  applied: count,
  undone: count
}) satisfies z.ZodType<ReviewFate>

/**
 * What one finished review of a conversation learned, kept with the conversation so the chat can
 * show it after a reload: every review that saved something, and a requested one that found
 * nothing ("Nothing worth keeping").
 */
export const learnedReviewSchema = z.object({
  reviewId: z.string(),
  /** When it finished (epoch ms). */
  at: z.number(),
  summary: reviewSummarySchema,
  /** The user asked for it ("Learn from this conversation now"). */
  requested: z.boolean(),
  /** What became of its proposals and changes since (absent from older processes: word the summary alone). */
  fate: reviewFateSchema.optional()
})
export type LearnedReview = z.infer<typeof learnedReviewSchema>

export const skillStatsSchema = z.object({
  useCount: z.number().int(),
  viewCount: z.number().int(),
  lastUsedAt: z.number().nullable(),
  successRate: z.number().nullable(),
  successCount: z.number().int(),
  failureCount: z.number().int(),
  patchCount: z.number().int(),
  createdBy: z.string().nullable(),
  stale: z.boolean()
})

export const skillItemSchema = z.object({
  name: z.string(),
  description: z.string(),
  category: z.string().nullable(),
  path: z.string(),
  readOnly: z.boolean(),
  warnings: z.array(z.string()),
  stats: skillStatsSchema,
  /** The user pinned it: learning only proposes changes to it. */
  pinned: z.boolean(),
  /** Out of the index and the hints; its files and history are kept. */
  disabled: z.boolean(),
  /** Who made it, which decides whether a review may change it without asking (`cairn`: a review or the agent). */
  madeBy: z.enum(['cairn', 'user', 'import', 'external']),
  /** What a strict Agent Skills validator (agentskills.io) would reject in its SKILL.md; empty when valid. */
  specIssues: z.array(z.string())
})
export type SkillItem = z.infer<typeof skillItemSchema>

export const skillDiagnosticSchema = z.object({ path: z.string(), severity: z.enum(['warning', 'skipped']), reason: z.string() })
export type SkillDiagnosticItem = z.infer<typeof skillDiagnosticSchema>

export const skillDetailSchema = z.object({
  skill: skillItemSchema,
  /** The full SKILL.md text. */
  content: z.string(),
  /** Supporting files, relative to the skill folder. */
  files: z.array(z.string())
})
export type SkillDetail = z.infer<typeof skillDetailSchema>

/** Why a skill written by hand was refused (`invalid`: the store's English reason is in `error`). */
export const skillWriteProblemCodes = ['exists', 'changed', 'invalid', 'not_found', 'read_only'] as const
export type SkillWriteProblemCode = (typeof skillWriteProblemCodes)[number]
/** A skill the user created, edited, or archived in the Skills screen; on failure nothing was written. */
export const skillWriteResultSchema = z.union([
  z.object({ ok: z.literal(true), name: z.string() }),
  z.object({ ok: z.literal(false), code: z.enum(skillWriteProblemCodes), error: z.string() })
])
export type SkillWriteResult = z.infer<typeof skillWriteResultSchema>

export const memoryTargetSchema = z.enum(['memory', 'user', 'project'])
export type MemoryTargetName = z.infer<typeof memoryTargetSchema>

/** Where a memory entry came from, kept outside the file (from the ledger), and whether it is pinned. */
export const memoryEntryInfoSchema = z.object({
  text: z.string(),
  pinned: z.boolean(),
  /** The change that wrote the entry as it reads now; null for an entry written by hand outside Cairn. */
  source: ledgerSourceSchema.nullable(),
  /** ISO time of that change. */
  updatedAt: z.string().nullable(),
  /** ISO time of the change that first added it (before any replace). */
  createdAt: z.string().nullable(),
  /** ISO time it was last confirmed: a writer saved it again (in any words) or rewrote it; null if never. */
  confirmedAt: z.string().nullable().optional(),
  sessionId: z.string().nullable(),
  reviewId: z.string().nullable(),
  ledgerId: z.number().int().nullable(),
  /** For an entry a sync brought in: the device it came from. */
  device: z.string().optional(),
  /** The user asked Cairn not to bring it up: kept in the file, left out of prompts, `read`, MCP and recall. */
  hidden: z.boolean().optional(),
  /** ISO time the user hid it; null when it is not hidden. */
  hiddenAt: z.string().nullable().optional()
})
export type MemoryEntryInfo = z.infer<typeof memoryEntryInfoSchema>

export const memoryStoreViewSchema = z.object({
  entries: z.array(z.string()),
  /** One per entry, in the same order. */
  info: z.array(memoryEntryInfoSchema),
  current: z.number().int(),
  limit: z.number().int(),
  enabled: z.boolean()
})
export type MemoryStoreView = z.infer<typeof memoryStoreViewSchema>

export const memoryResultSchema = z.object({
  success: z.boolean(),
  message: z.string().optional(),
  error: z.string().optional(),
  /** An add of an entry the file already holds: nothing was written, the entry counts as confirmed. */
  duplicate: z.boolean().optional(),
  /** An add refused because an entry already says nearly the same, or the opposite: that entry, to replace instead. */
  similar: z.object({ kind: z.enum(['near_duplicate', 'contradiction']), entry: z.string() }).optional()
})
export type MemoryResultView = z.infer<typeof memoryResultSchema>

/** `file`: browser mode's "Remember on this computer" (`<home>/secrets.local.json`, 0600). */
export const keyStorageSchema = z.enum(['os', 'basic_text', 'memory', 'env', 'none', 'file'])
export type KeyStorage = z.infer<typeof keyStorageSchema>

/** Whether a secret is set, its last characters, and where it is kept (never the key itself). */
const keyStatusSchema = z.object({ hasApiKey: z.boolean(), keyHint: z.string().nullable(), keyStorage: keyStorageSchema })

export const settingsViewSchema = z.object({
  config: configSchema,
  hasApiKey: z.boolean(),
  /** Last four characters of the key, never the key. */
  keyHint: z.string().nullable(),
  /** Where the key lives: the OS keyring, Electron's plaintext fallback (warn), this process only, an env var, nowhere. */
  keyStorage: keyStorageSchema,
  /** The key for `learning.baseURL` (reviews on their own endpoint), shown the same way; absent where there is none to set. */
  learningKey: keyStatusSchema.optional(),
  /** The key for `search.embeddingBaseURL` (an embedding server of its own), shown the same way. */
  embeddingKey: keyStatusSchema.optional(),
  /** The external memory provider's key (`memory.provider`: Mem0's platform, Honcho). */
  memoryProviderKey: keyStatusSchema.optional(),
  /** Browser mode: whether keys and secrets typed here are remembered on this computer, and in which file (issue 29, part B). */
  rememberSecrets: z.object({ remember: z.boolean(), file: z.string() }).optional()
})
export type SettingsView = z.infer<typeof settingsViewSchema>

// The provider's connection test, model list and setup problems live in domain-provider.ts.
export * from './domain-provider'

export const appInfoSchema = z.object({
  version: z.string(),
  home: z.string(),
  platform: z.string(),
  mode: z.enum(['desktop', 'browser']),
  /** Null when chat can start; otherwise what the user must set up first. */
  providerProblem: providerProblemSchema.nullable(),
  /** Where a new conversation works unless the user picks a folder (config `agent.workspace`, else ~/Cairn). */
  defaultWorkspace: z.string()
})
export type AppInfo = z.infer<typeof appInfoSchema>

/** Why a folder cannot be a conversation's workspace (the params of a `WORKSPACE` request error). */
export const workspaceProblemCodes = ['not_absolute', 'missing', 'not_folder', 'forbidden', 'cannot_create'] as const
export type WorkspaceProblemCode = (typeof workspaceProblemCodes)[number]

export const learningStatusSchema = z.object({
  enabled: z.boolean(),
  mode: z.enum(learningModes),
  /** Proposals waiting in the Inbox, and the oldest one's time (for the reminder). */
  pendingProposals: z.number().int(),
  oldestPendingAt: z.number().nullable(),
  paused: z.boolean(),
  pausedReason: reviewsPausedReasonSchema.nullable(),
  running: reviewRunSchema.nullable(),
  queued: z.number().int()
})
export type LearningStatus = z.infer<typeof learningStatusSchema>

export { configSchema, ledgerEntrySchema }

export const proposalSchema = z.object({
  id: z.number().int(),
  createdAt: z.number(),
  origin: z.enum(proposalOrigins),
  reviewId: z.string().nullable(),
  sessionId: z.string().nullable(),
  kind: z.enum(proposalKinds),
  target: z.string(),
  before: z.string().nullable(),
  after: z.string().nullable(),
  meta: z.record(z.string(), z.unknown()),
  reasons: z.array(reviewReasonSchema),
  cause: z.enum(proposalCauses),
  rationale: z.string().nullable(),
  state: z.enum(proposalStates),
  decidedAt: z.number().nullable(),
  editedAfter: z.string().nullable(),
  ledgerId: z.number().int().nullable(),
  stale: z.boolean()
})

/** The outcome of approving or rejecting one proposal. */
export const proposalDecisionSchema = z.union([
  z.object({ ok: z.literal(true), proposal: proposalSchema, ledgerEntry: ledgerEntrySchema.nullable() }),
  z.object({ ok: z.literal(false), code: z.enum(['not_found', 'decided', 'stale', 'refused']), error: z.string() })
])

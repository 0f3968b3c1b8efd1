import { z } from 'zod'
import { ledgerEntrySchema } from './ledger'

/** What a review did to a skill, after netting its rows (created then patched reads as created). */
export const skillVerbs = ['created', 'updated', 'deleted'] as const
export type SkillVerb = (typeof skillVerbs)[number]

/** How many entries of one memory file a review added, replaced and removed. */
export const storeChangesSchema = z.object({ added: z.number().int(), replaced: z.number().int(), removed: z.number().int() })
export type StoreChanges = z.infer<typeof storeChangesSchema>

/** Longest entry text a summary keeps of a remembered or removed memory entry. */
export const SUMMARY_ENTRY_CHARS = 120
/** Longest gist a summary keeps of what a patch changed in a skill. */
export const SUMMARY_GIST_CHARS = 100

/** One memory entry a review wrote (added, or the new text of a replace) or removed, cut to {@link SUMMARY_ENTRY_CHARS}. */
export const summaryEntrySchema = z.object({ store: z.enum(['memory', 'user', 'project']), text: z.string() })
export type SummaryEntry = z.infer<typeof summaryEntrySchema>

/** What a review did to one skill: the verb, and for the faces' words its description (created) or a gist of the change (updated). */
export const summarySkillSchema = z.object({
  name: z.string(),
  verb: z.enum(skillVerbs),
  /** A created skill's description (when to use it). */
  description: z.string().optional(),
  /**
   * An updated skill's change in one line: the first line the change added and the first it removed
   * (either null), each cut to {@link SUMMARY_GIST_CHARS}. Absent when the change was in a supporting file only.
   */
  gist: z.object({ added: z.string().nullable(), removed: z.string().nullable() }).optional()
})
export type SummarySkill = z.infer<typeof summarySkillSchema>

/** What a review saved, as data: every face (app, CLI, tray) words it in its user's language. */
export const reviewSummarySchema = z.object({
  /** False when the review left nothing behind ("Nothing to save."). */
  saved: z.boolean(),
  /** MEMORY.md: what the review learned about the environment. */
  memory: storeChangesSchema,
  /** USER.md: what it learned about the user. */
  user: storeChangesSchema,
  /** The conversation's project memory (PROJECT.md); absent when the review left it alone. */
  project: storeChangesSchema.optional(),
  /** In the order the review first touched them. */
  skills: z.array(summarySkillSchema),
  /** The entries it wrote, in order; absent when none (and on runs recorded before summaries carried words). */
  remembered: z.array(summaryEntrySchema).optional(),
  /** The entries it removed (the old text of a remove); absent when none. */
  forgotten: z.array(summaryEntrySchema).optional(),
  /** Changes it proposed instead of applying (they wait in the Inbox; `saved` counts none of them); absent when none. */
  proposed: z.number().int().optional(),
  /** It ran out of model calls (`learning.reviewMaxIterations`) while still working; what it saved is kept. Absent otherwise. */
  budgetExhausted: z.boolean().optional()
})
export type ReviewSummary = z.infer<typeof reviewSummarySchema>

const noChanges = (): StoreChanges => ({ added: 0, replaced: 0, removed: 0 })

/** The summary of a review that saved nothing. */
export function emptyReviewSummary(): ReviewSummary {
  return { saved: false, memory: noChanges(), user: noChanges(), skills: [] }
}

/**
 * A summary as `review_runs` stores it (JSON). Rows written before summaries were data hold an
 * English line: "Nothing to save." still means nothing was saved; any other line reads as unknown
 * (null), and the caller may rebuild the summary from the review's ledger rows.
 */
export function parseStoredSummary(stored: string | null): ReviewSummary | null {
  if (stored === null) return null
  if (stored.trim() === 'Nothing to save.') return emptyReviewSummary()
  try {
    const parsed = reviewSummarySchema.safeParse(JSON.parse(stored))
    return parsed.success ? parsed.data : null
  } catch {
    return null
  }
}

export const reviewOutcomeSchema = z.object({
  /** What the review saved, e.g. memory updated and skill "docker-compose-debug" created. */
  summary: reviewSummarySchema,
  /** Ledger rows this review wrote. */
  entries: z.array(ledgerEntrySchema),
  /** Verdicts on skills the conversation followed. */
  skillOutcomes: z.array(z.object({ name: z.string(), outcome: z.enum(['success', 'failure']) })),
  /** The model's closing words (e.g. "Nothing to save."). */
  finalText: z.string(),
  iterations: z.number().int(),
  toolCalls: z.number().int(),
  /** Tool calls refused because the review may not use that tool. */
  refusedCalls: z.array(z.string()),
  /** Ids of the proposals it left in the Inbox (changes waiting for the user); absent when none. */
  proposals: z.array(z.number().int()).optional(),
  /** Tokens the provider reported over all of the review's model calls (absent when it reported none). */
  usage: z.object({ promptTokens: z.number().int(), completionTokens: z.number().int() }).optional(),
  /** The model the review ran on (`learning.model`, else the chat model). */
  model: z.string().optional(),
  /**
   * A curation pass's ending, for the faces to word ("Tidy the library now"): `proposed` (with how many
   * proposals wait in the Inbox) or `nothing_to_tidy`. Absent for a conversation's review; a failed pass
   * is a `review_failed` event with the same reviewId.
   */
  curation: z.object({ result: z.enum(['proposed', 'nothing_to_tidy']), proposals: z.number().int() }).optional()
})
export type ReviewOutcome = z.infer<typeof reviewOutcomeSchema>


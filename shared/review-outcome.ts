import { z } from 'zod'
import { ledgerEntrySchema } from './ledger'

/** What a review did to a skill, after netting its rows (created then patched reads as created). */
export const skillVerbs = ['created', 'updated', 'deleted'] as const
export type SkillVerb = (typeof skillVerbs)[number]

/** How many entries of one memory file a review added, replaced and removed. */
export const storeChangesSchema = z.object({ added: z.number().int(), replaced: z.number().int(), removed: z.number().int() })
export type StoreChanges = z.infer<typeof storeChangesSchema>

/** What a review saved, as data: every face (app, CLI, tray) words it in its user's language. */
export const reviewSummarySchema = z.object({
  /** False when the review left nothing behind ("Nothing to save."). */
  saved: z.boolean(),
  /** MEMORY.md: what the review learned about the environment. */
  memory: storeChangesSchema,
  /** USER.md: what it learned about the user. */
  user: storeChangesSchema,
  /** In the order the review first touched them. */
  skills: z.array(z.object({ name: z.string(), verb: z.enum(skillVerbs) }))
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
  refusedCalls: z.array(z.string())
})
export type ReviewOutcome = z.infer<typeof reviewOutcomeSchema>


/** What ended a conversation for learning: idle for `learning.idleReviewMinutes`, a new conversation, the app quitting, the CLI exiting. */
export const sessionEndCauses = ['idle', 'new_conversation', 'quit', 'exit'] as const
export type SessionEndCause = (typeof sessionEndCauses)[number]

/**
 * Why a review ran, as a code with its figures: the learning loop decides them, the review prompt
 * words them for the model, and every face words them in the user's language. No zod here, so the
 * renderer can use it without the schemas (the schema is in review-protocol.ts).
 */
export type ReviewReason =
  | { code: 'memory_interval'; count: number }
  | { code: 'skill_interval'; count: number }
  | { code: 'long_task'; count: number }
  | { code: 'error_overcome'; tool: string }
  | { code: 'correction' }
  | { code: 'preference' }
  | { code: 'compression'; part: number | null; parts: number | null }
  | { code: 'requested' }
  /**
   * The conversation ended with turns no review has seen: it went idle, the user started another
   * one, or the app or the CLI quit. `turns`: the user turns not yet reviewed.
   */
  | { code: 'session_end'; cause: SessionEndCause; turns: number }
  /** A curation pass over the whole library (on request or on its schedule): its results are always proposals. */
  | { code: 'curation' }
  /** A reason stored before reasons were codes, that {@link parseStoredReason} does not know: shown as written. */
  | { code: 'other'; text: string }

const reasonPatterns: Array<[RegExp, (match: RegExpMatchArray) => ReviewReason]> = [
  [/^(\d+) turns since the last memory write$/, (m) => ({ code: 'memory_interval', count: Number(m[1]) })],
  [/^(\d+) tool iterations since the last skill write$/, (m) => ({ code: 'skill_interval', count: Number(m[1]) })],
  [/^long task: (\d+) tool calls$/, (m) => ({ code: 'long_task', count: Number(m[1]) })],
  [/^error overcome: (.+) failed, then the task went on$/, (m) => ({ code: 'error_overcome', tool: m[1] })],
  [/^the user corrected the assistant$/, () => ({ code: 'correction' })],
  [/^the user stated a preference$/, () => ({ code: 'preference' })],
  [
    /^before compression: the oldest part of the conversation is being condensed(?: \(part (\d+) of (\d+)\))?$/,
    (m) => ({ code: 'compression', part: m[1] ? Number(m[1]) : null, parts: m[2] ? Number(m[2]) : null })
  ],
  [/^requested by the user$/, () => ({ code: 'requested' })]
]

/**
 * A reason as `review_runs` holds it: a code, or (for rows written before reasons were codes) the
 * English sentence the learning loop used to write, read back into its code.
 */
export function parseStoredReason(stored: unknown): ReviewReason {
  if (typeof stored === 'object' && stored !== null && typeof (stored as { code?: unknown }).code === 'string') return stored as ReviewReason
  const text = typeof stored === 'string' ? stored : JSON.stringify(stored)
  const trimmed = text.trim()
  for (const [pattern, toReason] of reasonPatterns) {
    const match = trimmed.match(pattern)
    if (match) return toReason(match)
  }
  return { code: 'other', text: trimmed }
}

/**
 * Why a review ran, as a code with its figures. The learning loop states its reasons in English
 * (the review model reads them); the faces read them back through {@link parseReviewReason} and word
 * them in the user's language. No zod here, so the renderer can use it without the schemas.
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
  /** A reason this version does not know: shown as it was written. */
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

/** The code of a reason as electron/core/learning (triggers.ts, learning-loop.ts) words it. */
export function parseReviewReason(text: string): ReviewReason {
  const trimmed = text.trim()
  for (const [pattern, toReason] of reasonPatterns) {
    const match = trimmed.match(pattern)
    if (match) return toReason(match)
  }
  return { code: 'other', text: trimmed }
}

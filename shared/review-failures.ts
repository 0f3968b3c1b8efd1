import { z } from 'zod'

/**
 * Why a review did not finish, as a code with its figures. It travels and is stored as this data
 * (`review_runs.failure`, the `review_failed` event, the worker's error frame), and every face words
 * it in the user's language (shared/i18n/describe-review-failure.ts). The host also writes the English
 * into `review_runs.error` and the event's `error` for logs and older readers; rows written before
 * the `failure` column (and older processes' events) are read back from that English into their code
 * by {@link parseReviewFailure}, the compatibility path. A failure reported in someone else's words
 * (the provider's error, a runner error) is `other`, shown as written.
 */
export const reviewFailureSchema = z.discriminatedUnion('code', [
  z.object({ code: z.literal('exited_before_start') }),
  z.object({ code: z.literal('closed_before_start') }),
  z.object({ code: z.literal('quit_before_run'), seconds: z.number() }),
  z.object({ code: z.literal('never_started') }),
  z.object({ code: z.literal('stopped') }),
  z.object({ code: z.literal('worker_gone'), pid: z.number().int().nullable() }),
  z.object({ code: z.literal('settings_unreadable'), detail: z.string() }),
  z.object({ code: z.literal('worker_unstartable'), detail: z.string() }),
  z.object({ code: z.literal('invalid_job'), issues: z.string() }),
  z.object({ code: z.literal('over_budget'), seconds: z.number() }),
  z.object({ code: z.literal('did_not_start'), seconds: z.number() }),
  z.object({ code: z.literal('lock_held'), seconds: z.number() }),
  z.object({ code: z.literal('worker_killed'), signal: z.string(), reported: z.string() }),
  z.object({ code: z.literal('worker_exited'), exitCode: z.string(), reported: z.string() }),
  z.object({ code: z.literal('other'), text: z.string() })
])
export type ReviewFailure = z.infer<typeof reviewFailureSchema>

const patterns: Array<[RegExp, (match: RegExpMatchArray) => ReviewFailure]> = [
  [/^Cairn exited before this review started\.$/, () => ({ code: 'exited_before_start' })],
  [/^Cairn closed before this review started\.$/, () => ({ code: 'closed_before_start' })],
  [/^Cairn quit before this review could run: reviews of the conversations open at quit get ([\d.]+) s\.$/, (m) => ({ code: 'quit_before_run', seconds: Number(m[1]) })],
  [/^Never started: the process that queued it ended before it could run\.$/, () => ({ code: 'never_started' })],
  [/^Stopped because Cairn was closing\.$/, () => ({ code: 'stopped' })],
  [/^The review worker(?: \(pid (\d+)\))? is gone without recording how the review ended: /, (m) => ({ code: 'worker_gone', pid: m[1] ? Number(m[1]) : null })],
  [/^Could not read the provider settings: (.*)$/, (m) => ({ code: 'settings_unreadable', detail: m[1] })],
  [/^Could not start the review worker: (.*)$/, (m) => ({ code: 'worker_unstartable', detail: m[1] })],
  [/^The review job is invalid: (.*)$/, (m) => ({ code: 'invalid_job', issues: m[1] })],
  // The worker's own wording names the setting: `… s budget (learning.reviewTimeoutMs) and was stopped.`
  [/^The review took longer than its ([\d.]+) s budget(?: \(learning\.reviewTimeoutMs\))? and was stopped\.$/, (m) => ({ code: 'over_budget', seconds: Number(m[1]) })],
  [/^The review worker did not start within ([\d.]+) s\.$/, (m) => ({ code: 'did_not_start', seconds: Number(m[1]) })],
  [/^Another review of this data home held the review lock for this review's whole ([\d.]+) s budget, so it did not run\./, (m) => ({ code: 'lock_held', seconds: Number(m[1]) })],
  [/^The review worker was killed \(([^)]*)\) before finishing\.(?: (.*))?$/, (m) => ({ code: 'worker_killed', signal: m[1], reported: m[2] ?? '' })],
  [/^The review worker exited with code (\S*) before finishing\.(?: (.*))?$/, (m) => ({ code: 'worker_exited', exitCode: m[1], reported: m[2] ?? '' })]
]

/** A failure as `review_runs.error` or a `review_failed` event holds it, read back into its code (its first line: the rest is the worker's output). */
export function parseReviewFailure(error: string): ReviewFailure {
  const first = error.split('\n')[0].trim()
  for (const [pattern, toFailure] of patterns) {
    const match = first.match(pattern)
    if (match) return toFailure(match)
  }
  return { code: 'other', text: first }
}

/** A stored failure as data (JSON of the `failure` column); null when absent or unreadable, so the caller falls back to the English. */
export function readStoredFailure(stored: string | null | undefined): ReviewFailure | null {
  if (!stored) return null
  try {
    const parsed = reviewFailureSchema.safeParse(JSON.parse(stored))
    return parsed.success ? parsed.data : null
  } catch {
    return null
  }
}

/**
 * Why a review did not finish, as a code with its figures. The host words it in English for
 * `review_runs.error` and the `review_failed` event (logs, older clients, other processes read that
 * text); every face reads the first line back into its code (as review-reasons.ts does) and words it
 * in the user's language. A failure the worker reported in its own words (the provider's error, a
 * runner error) is `other`, shown as written.
 */
export type ReviewFailure =
  | { code: 'exited_before_start' }
  | { code: 'never_started' }
  | { code: 'stopped' }
  | { code: 'worker_gone'; pid: number | null }
  | { code: 'settings_unreadable'; detail: string }
  | { code: 'worker_unstartable'; detail: string }
  | { code: 'invalid_job'; issues: string }
  | { code: 'over_budget'; seconds: number }
  | { code: 'did_not_start'; seconds: number }
  | { code: 'worker_killed'; signal: string; reported: string }
  | { code: 'worker_exited'; exitCode: string; reported: string }
  | { code: 'other'; text: string }

const patterns: Array<[RegExp, (match: RegExpMatchArray) => ReviewFailure]> = [
  [/^Cairn exited before this review started\.$/, () => ({ code: 'exited_before_start' })],
  [/^Never started: the process that queued it ended before it could run\.$/, () => ({ code: 'never_started' })],
  [/^Stopped because Cairn was closing\.$/, () => ({ code: 'stopped' })],
  [/^The review worker(?: \(pid (\d+)\))? is gone without recording how the review ended: /, (m) => ({ code: 'worker_gone', pid: m[1] ? Number(m[1]) : null })],
  [/^Could not read the provider settings: (.*)$/, (m) => ({ code: 'settings_unreadable', detail: m[1] })],
  [/^Could not start the review worker: (.*)$/, (m) => ({ code: 'worker_unstartable', detail: m[1] })],
  [/^The review job is invalid: (.*)$/, (m) => ({ code: 'invalid_job', issues: m[1] })],
  [/^The review took longer than its ([\d.]+) s budget and was stopped\.$/, (m) => ({ code: 'over_budget', seconds: Number(m[1]) })],
  [/^The review worker did not start within ([\d.]+) s\.$/, (m) => ({ code: 'did_not_start', seconds: Number(m[1]) })],
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

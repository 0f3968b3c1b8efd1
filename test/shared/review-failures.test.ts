import { describe, expect, it } from 'vitest'
import { translator } from '../../shared/i18n'
import { describePauseReason } from '../../shared/i18n/describe'
import { describeReviewError, describeReviewFailure, reviewFailureText } from '../../shared/i18n/describe-review-failure'
import { parseReviewFailure, readStoredFailure, type ReviewFailure } from '../../shared/review-failures'

const zh = translator('zh-CN')

describe('review failures as codes', () => {
  it('the host writes the English it always wrote', () => {
    expect(reviewFailureText({ code: 'exited_before_start' })).toBe('Cairn exited before this review started.')
    expect(reviewFailureText({ code: 'worker_unstartable', detail: 'spawn ENOMEM' })).toBe('Could not start the review worker: spawn ENOMEM')
    expect(reviewFailureText({ code: 'over_budget', seconds: 90 })).toBe('The review took longer than its 90 s budget and was stopped.')
    expect(reviewFailureText({ code: 'worker_exited', exitCode: '1', reported: '' })).toBe('The review worker exited with code 1 before finishing.')
    expect(reviewFailureText({ code: 'worker_killed', signal: 'SIGKILL', reported: 'out of memory' })).toBe('The review worker was killed (SIGKILL) before finishing. out of memory')
  })

  it('every face reads that English back into its code and words it in the user language', () => {
    const stored = 'The review worker (pid 42) is gone without recording how the review ended: Cairn or the worker was stopped or killed mid-review. Nothing is retried; later conversations are reviewed as usual.'
    expect(parseReviewFailure(stored)).toEqual({ code: 'worker_gone', pid: 42 })
    expect(describeReviewError(stored, zh)).toMatch(/^审查进程（pid 42）已消失/)
    expect(parseReviewFailure('The review worker exited with code 1 before finishing. boom\nLast output:\nstack')).toEqual({ code: 'worker_exited', exitCode: '1', reported: 'boom' })
    expect(describeReviewError('The review took longer than its 90 s budget and was stopped.', zh)).toBe('审查超出了 90 秒的时间预算，已被停止。')
    // A detached worker's own older wording names the setting.
    expect(parseReviewFailure('The review took longer than its 12.5 s budget (learning.reviewTimeoutMs) and was stopped.')).toEqual({ code: 'over_budget', seconds: 12.5 })
  })

  it("shows the worker's own words as written, first line only", () => {
    expect(describeReviewError('401 Unauthorized: bad key\nmore', zh)).toBe('401 Unauthorized: bad key')
  })

  it('words the latest failure of a pause in the user language', () => {
    const text = describePauseReason({ code: 'failures', count: 3, latest: 'Stopped because Cairn was closing.' }, zh)
    expect(text).toContain('因 Cairn 正在关闭而停止。')
  })

  it('words a pause’s latest failure from its data when the host sent it', () => {
    const text = describePauseReason({ code: 'failures', count: 3, latest: 'anything', latestFailure: { code: 'over_budget', seconds: 90 } }, zh)
    expect(text).toContain('审查超出了 90 秒的时间预算，已被停止。')
  })

  it('reads every code back from the English it is written as (the path for rows and events from before failures were data)', () => {
    const failures: ReviewFailure[] = [
      { code: 'exited_before_start' },
      { code: 'closed_before_start' },
      { code: 'quit_before_run', seconds: 0.3 },
      { code: 'never_started' },
      { code: 'stopped' },
      { code: 'worker_gone', pid: 7 },
      { code: 'worker_gone', pid: null },
      { code: 'settings_unreadable', detail: 'bad JSON' },
      { code: 'worker_unstartable', detail: 'spawn ENOMEM' },
      { code: 'invalid_job', issues: 'kinds: too small' },
      { code: 'over_budget', seconds: 90 },
      { code: 'did_not_start', seconds: 15 },
      { code: 'lock_held', seconds: 180 },
      { code: 'worker_killed', signal: 'SIGKILL', reported: 'out of memory' },
      { code: 'worker_exited', exitCode: '1', reported: '' },
      { code: 'other', text: '401 Unauthorized: bad key' }
    ]
    for (const failure of failures) expect(parseReviewFailure(reviewFailureText(failure))).toEqual(failure)
  })

  it('words the new codes in Chinese, and reads stored data only when it is a failure', () => {
    expect(describeReviewFailure({ code: 'lock_held', seconds: 180 }, zh)).toMatch(/180 秒预算内都占着审查锁/)
    expect(describeReviewFailure({ code: 'quit_before_run', seconds: 0.3 }, zh)).toBe('这次审查运行前 Cairn 已退出：退出时打开的对话的审查只有 0.3 秒。')
    expect(readStoredFailure('{"code":"stopped"}')).toEqual({ code: 'stopped' })
    expect(readStoredFailure('{"code":"nonsense"}')).toBeNull()
    expect(readStoredFailure('not json')).toBeNull()
    expect(readStoredFailure(null)).toBeNull()
  })
})

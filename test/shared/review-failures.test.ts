import { describe, expect, it } from 'vitest'
import { translator } from '../../shared/i18n'
import { describePauseReason } from '../../shared/i18n/describe'
import { describeReviewError, reviewFailureText } from '../../shared/i18n/describe-review-failure'
import { parseReviewFailure } from '../../shared/review-failures'

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
  })

  it("shows the worker's own words as written, first line only", () => {
    expect(describeReviewError('401 Unauthorized: bad key\nmore', zh)).toBe('401 Unauthorized: bad key')
  })

  it('words the latest failure of a pause in the user language', () => {
    const text = describePauseReason({ code: 'failures', count: 3, latest: 'Stopped because Cairn was closing.' }, zh)
    expect(text).toContain('因 Cairn 正在关闭而停止。')
  })
})

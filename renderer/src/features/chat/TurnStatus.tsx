import { useApp, useChat, useT } from '../../app/context'
import { Icon } from '../../components/Icon'
import { Notice } from '../../components/Feedback'
import { describeReviewSummary, describeTurnError } from '../../../../shared/i18n/describe'
import { ApprovalCard } from './ApprovalCard'
import type { LearnedReview } from '../../../../shared/ipc/domain'

/** Failures the user fixes in Settings (the provider is missing, rejects the key, or lacks the model). */
const SETTINGS_ERRORS = new Set(['PROVIDER', 'not_configured', 'auth', 'model_not_found', 'unreachable'])

/** Everything about the turn that sits above the composer: approvals, retries, errors, what was learned. */
export function TurnStatus(): React.JSX.Element {
  const t = useT()
  const { chat, ui } = useApp()
  const approvals = useChat((s) => s.approvals)
  const retrying = useChat((s) => s.retrying)
  const error = useChat((s) => s.error)
  // The chip goes once every change it announces was undone (its note in the conversation says so).
  const learned = useChat((s) => (s.learned && !undoneSince(s.learned.reviewId, s.learnedNotes) ? s.learned : null))
  const running = useChat((s) => s.running)
  const failure = error ? describeTurnError(error, t) : null

  return (
    <div className="turn-status">
      {approvals.map((request) => (
        <ApprovalCard key={request.requestId} request={request} />
      ))}
      {retrying ? (
        <div className="retry-line" role="status">
          <span className="pulse-dot" />
          {t('chat.retrying', { attempt: retrying.attempt, seconds: Math.max(1, Math.round(retrying.delayMs / 1000)) })}
          <span className="retry-reason">{retrying.reason}</span>
        </div>
      ) : null}
      {error ? (
        <Notice
          tone="error"
          actions={
            <>
              {error.plan && !running ? (
                <button type="button" className="secondary-button small" onClick={() => void chat.getState().retry()}>
                  {t('common.retry')}
                </button>
              ) : null}
              {SETTINGS_ERRORS.has(error.code) ? (
                <button type="button" className="ghost-button small" onClick={() => ui.getState().navigate('settings')}>
                  {t('setup.openSettings')}
                </button>
              ) : null}
              <button type="button" className="icon-button small" aria-label={t('common.dismiss')} onClick={() => chat.getState().dismissError()}>
                <Icon name="close" size={14} />
              </button>
            </>
          }
        >
          {failure?.text}
          {failure?.detail ? <div className="notice-detail">{failure.detail}</div> : null}
        </Notice>
      ) : null}
      {learned ? (
        <button type="button" className="learned-chip" onClick={() => ui.getState().navigate('timeline')} title={t('chat.learnedOpen')}>
          <Icon name="sparkle" size={14} />
          <span>{t('chat.learned', { summary: describeReviewSummary(learned.summary, t) ?? '' })}</span>
          <Icon name="chevronRight" size={13} />
        </button>
      ) : null}
    </div>
  )
}

/** Every change review `reviewId` made is undone by now, as its note last heard. */
function undoneSince(reviewId: string, notes: LearnedReview[]): boolean {
  const fate = notes.find((note) => note.reviewId === reviewId)?.fate
  return Boolean(fate && fate.undone > 0 && fate.applied === 0)
}

import { useApp, useChat, useT } from '../../app/context'
import { Icon } from '../../components/Icon'
import { describeReviewSummary } from '../../../../shared/i18n/describe'
import { ApprovalCard } from './ApprovalCard'
import { TurnFailureNotice } from './TurnFailureNotice'
import type { LearnedReview } from '../../../../shared/ipc/domain'
import type { SettingsSection } from '../../stores/ui'

/** Everything about the turn that sits above the composer: approvals, retries, errors, what was learned. */
export function TurnStatus({ openSettings }: { openSettings?: (section: SettingsSection) => void } = {}): React.JSX.Element {
  const t = useT()
  const { ui } = useApp()
  const approvals = useChat((s) => s.approvals)
  const retrying = useChat((s) => s.retrying)
  // The chip goes once every change it announces was undone (its note in the conversation says so).
  const learned = useChat((s) => (s.learned && !undoneSince(s.learned.reviewId, s.learnedNotes) ? s.learned : null))

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
      <TurnFailureNotice openSettings={openSettings} />
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

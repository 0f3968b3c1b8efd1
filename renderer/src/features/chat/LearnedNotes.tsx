import type { LearnedReview } from '../../../../shared/ipc/domain'
import { describeLearned, describeLearnedOrNothing } from '../../../../shared/i18n/describe-learning'
import { useApp, useT } from '../../app/context'
import { Icon } from '../../components/Icon'
import type { ChatItem } from '../../stores/chat-items'
import { describeFate, fateMoved } from '../../../../shared/i18n/describe-fate'

/**
 * What one review of this conversation learned, as a quiet note in the conversation ("Remembered: …"),
 * and what became of it since: its proposals approved, rejected or still waiting, its changes undone
 * (`note.fate`, re-read whenever a proposal is decided or a change reverted).
 */
export function LearnedNote({ note }: { note: LearnedReview }): React.JSX.Element {
  const t = useT()
  const { ui, inbox } = useApp()
  const { fate } = note
  const proposed = note.summary.proposed ?? 0
  // Without a fate (an older main, a note announced live), the review's own figures are all there is.
  const waiting = fate ? fate.pending : proposed
  const moved = fateMoved(fate)
  const status = describeFate(fate, t)
  const inTimeline = note.summary.saved || (fate ? fate.applied + fate.undone > 0 : false)
  const allUndone = fate ? fate.undone > 0 && fate.applied === 0 && fate.pending === 0 : false
  // A review that only proposed changes learned nothing yet: say what waits, not "nothing worth keeping".
  const lines = proposed && !note.summary.saved ? describeLearned(note.summary, t) : describeLearnedOrNothing(note.summary, t)
  const openInbox = (): void => {
    inbox.getState().arriveFor(note.reviewId)
    ui.getState().navigate('inbox')
  }
  return (
    <aside className={`learned-note${allUndone ? ' learned-note-undone' : ''}`} aria-label={t('learned.heading')} data-review-id={note.reviewId}>
      <Icon name="sparkle" size={14} />
      <div className="learned-note-body">
        {lines.length ? (
          <ul>
            {lines.map((line, index) => (
              <li key={index}>{line}</li>
            ))}
          </ul>
        ) : null}
        {status ? <p className="learned-note-fate">{status}</p> : null}
        <div className="learned-note-links">
          {inTimeline ? (
            <button type="button" className="link-button" onClick={() => ui.getState().navigate('timeline')}>
              {t('chat.learnedTimeline')}
            </button>
          ) : null}
          {waiting ? (
            <button type="button" className="link-button" onClick={openInbox}>
              {moved ? t('chat.learnedFate.openInbox', { count: waiting }) : t('chat.learnedProposed', { count: waiting })}
            </button>
          ) : null}
        </div>
      </div>
    </aside>
  )
}

/**
 * Where each note goes: after the last stored message from before the review finished (rows still
 * live have no time yet, so a note never lands among them); `-1` holds notes older than every row.
 */
export function placeNotes(items: ChatItem[], notes: LearnedReview[]): Map<number, LearnedReview[]> {
  const placed = new Map<number, LearnedReview[]>()
  for (const note of [...notes].sort((a, b) => a.at - b.at)) {
    let at = -1
    items.forEach((item, index) => {
      const time = item.kind === 'user' || item.kind === 'assistant' ? item.at : undefined
      if (time !== undefined && time <= note.at) at = index
    })
    placed.set(at, [...(placed.get(at) ?? []), note])
  }
  return placed
}

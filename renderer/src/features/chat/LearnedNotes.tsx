import type { LearnedReview } from '../../../../shared/ipc/domain'
import { describeLearned, describeLearnedOrNothing } from '../../../../shared/i18n/describe-learning'
import { useApp, useT } from '../../app/context'
import { Icon } from '../../components/Icon'
import type { ChatItem } from '../../stores/chat-items'

/** What one review of this conversation learned, as a quiet note in the conversation ("Remembered: …"). */
export function LearnedNote({ note }: { note: LearnedReview }): React.JSX.Element {
  const t = useT()
  const { ui } = useApp()
  const proposed = note.summary.proposed ?? 0
  // A review that only proposed changes learned nothing yet: say what waits, not "nothing worth keeping".
  const lines = proposed && !note.summary.saved ? describeLearned(note.summary, t) : describeLearnedOrNothing(note.summary, t)
  return (
    <aside className="learned-note" aria-label={t('learned.heading')} data-review-id={note.reviewId}>
      <Icon name="sparkle" size={14} />
      <div className="learned-note-body">
        {lines.length ? (
          <ul>
            {lines.map((line, index) => (
              <li key={index}>{line}</li>
            ))}
          </ul>
        ) : null}
        <div className="learned-note-links">
          {note.summary.saved ? (
            <button type="button" className="link-button" onClick={() => ui.getState().navigate('timeline')}>
              {t('chat.learnedTimeline')}
            </button>
          ) : null}
          {proposed ? (
            <button type="button" className="link-button" onClick={() => ui.getState().navigate('inbox')}>
              {t('chat.learnedProposed', { count: proposed })}
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

import type { MemoryResultView } from '../../../../shared/ipc/domain'
import { useT } from '../../app/context'
import { Notice } from '../../components/Feedback'

export interface SimilarEntryNoticeProps {
  similar: NonNullable<MemoryResultView['similar']>
  busy: boolean
  /** Put the new text in place of the similar entry. */
  onReplace(): void
  /** Keep both: the user judged them different facts. */
  onAddAnyway(): void
}

/** An add refused beside an entry that says nearly the same or the opposite: that entry, and what to do instead. */
export function SimilarEntryNotice({ similar, busy, onReplace, onAddAnyway }: SimilarEntryNoticeProps): React.JSX.Element {
  const t = useT()
  return (
    <Notice tone="warn">
      <p>{t(`memory.similar.${similar.kind}`)}</p>
      <blockquote className="quote">{similar.entry}</blockquote>
      <div className="memory-add-bar">
        <button type="button" className="primary-button small" disabled={busy} onClick={onReplace}>
          {t('memory.similar.replace')}
        </button>
        <button type="button" className="secondary-button small" disabled={busy} onClick={onAddAnyway}>
          {t('memory.similar.addAnyway')}
        </button>
      </div>
    </Notice>
  )
}

import { useStore } from 'zustand'
import { describeReviewError, describeReviewFailure } from '../../../../../shared/i18n/describe-review-failure'
import { useT } from '../../../app/context'
import { Notice } from '../../../components/Feedback'
import type { ImportsStore } from '../../../stores/imports'
import { learnLine } from './import-words'

/**
 * "Learn from imported conversations": starts the reviews (all conversations not learned from yet),
 * shows reviewed N of M with what they changed and the conversation under review, and cancels.
 * Disabled, saying why, when learning is off or nothing is left.
 */
export function LearnImported({ store }: { store: ImportsStore }): React.JSX.Element {
  const t = useT()
  const activity = useStore(store, (s) => s.activity)
  if (!activity) return <></>
  const { learning, unreviewed, learningOn } = activity
  const reason = !learningOn ? t('import.learn.off') : unreviewed === 0 && !learning.running ? t('import.learn.none') : null
  const ratio = learning.total > 0 ? learning.done / learning.total : 1

  return (
    <div className="import-learn">
      <h3 className="field-label">{t('import.learn.title')}</h3>
      <p className="field-hint">{t('import.learn.lead')}</p>
      {learning.running ? (
        <div className="import-progress" aria-live="polite">
          <span>{learnLine(learning, t)}</span>
          <progress aria-label={t('import.learn.title')} max={1} value={ratio} />
          {learning.current ? <span className="field-hint">{t('import.learn.current', { title: learning.current.title ?? t('import.learn.untitled') })}</span> : null}
          {learning.cancelRequested ? <span className="field-hint">{t('import.learn.stopping')}</span> : null}
        </div>
      ) : learning.finishedAt !== null ? (
        <p className="muted" aria-live="polite">
          {learnLine(learning, t)}
        </p>
      ) : null}
      {learning.lastError && learning.failed > 0 ? <Notice tone="warn">{t('import.learn.lastError', { error: learning.lastFailure ? describeReviewFailure(learning.lastFailure, t) : describeReviewError(learning.lastError, t) })}</Notice> : null}
      <div className="card-actions">
        {learning.running ? (
          <button type="button" className="secondary-button" disabled={learning.cancelRequested} onClick={() => void store.getState().cancelLearn()}>
            {t('import.learn.cancel')}
          </button>
        ) : (
          <button
            type="button"
            className="primary-button"
            disabled={reason !== null}
            aria-describedby={reason ? 'import-learn-reason' : undefined}
            onClick={() => void store.getState().learn()}
          >
            {unreviewed > 0 ? t('import.learn.start', { count: unreviewed }) : t('import.learn.title')}
          </button>
        )}
      </div>
      {reason && !learning.running ? (
        <p id="import-learn-reason" className="field-hint">
          {reason}
        </p>
      ) : null}
    </div>
  )
}

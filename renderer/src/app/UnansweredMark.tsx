import { useT } from './context'
import './unanswered-mark.css'

/** The sidebar's mark on a conversation whose only message was not answered (its turn failed): opening it shows why, with Retry. */
export function UnansweredMark(): React.JSX.Element {
  const t = useT()
  return (
    <span className="unanswered-mark" title={t('turnFailure.unansweredHint')}>
      {t('turnFailure.unanswered')}
    </span>
  )
}

import { useState } from 'react'
import { describeRevertFailure } from '../../../../shared/i18n/describe'
import type { LedgerEntry, RevertConflict, RevertErrorCode } from '../../../../shared/ledger'
import { useApp, useT } from '../../app/context'
import { Dialog } from '../../components/Dialog'
import { Notice } from '../../components/Feedback'
import { kindLabel } from './labels'

/** Asks before undoing a learned change; if the target moved on since, shows both texts instead. */
export function RevertDialog({ entry, onClose }: { entry: LedgerEntry; onClose(): void }): React.JSX.Element {
  const t = useT()
  const { timeline, ui } = useApp()
  const [busy, setBusy] = useState(false)
  const [failure, setFailure] = useState<{ code: RevertErrorCode | null; error: string; conflict: RevertConflict | null } | null>(null)

  const confirm = async (): Promise<void> => {
    setBusy(true)
    const outcome = await timeline.getState().revert(entry.id)
    setBusy(false)
    if (outcome.ok) {
      ui.getState().toast({ tone: 'success', text: t('timeline.reverted') })
      onClose()
    } else setFailure({ code: outcome.code, error: outcome.error, conflict: outcome.conflict })
  }

  const worded = failure ? describeRevertFailure(failure, t) : null
  return (
    <Dialog
      title={failure ? t('timeline.revertFailedTitle') : t('timeline.revertTitle')}
      onClose={onClose}
      wide={Boolean(failure?.conflict)}
      actions={
        failure ? (
          <button type="button" className="primary-button" onClick={onClose} data-autofocus>
            {t('common.close')}
          </button>
        ) : (
          <>
            <button type="button" className="secondary-button" onClick={onClose} data-autofocus>
              {t('common.cancel')}
            </button>
            <button type="button" className="danger-button" disabled={busy} onClick={() => void confirm()}>
              {busy ? t('timeline.reverting') : t('timeline.revert')}
            </button>
          </>
        )
      }
    >
      {failure ? (
        <>
          <Notice tone="error">
            {worded?.text}
            {worded?.detail ? <div className="notice-detail">{worded.detail}</div> : null}
          </Notice>
          {failure.conflict ? (
            <div className="conflict">
              <p>{t('timeline.conflictLead')}</p>
              <div className="conflict-columns">
                <div>
                  <div className="conflict-label">{t('timeline.conflictExpected')}</div>
                  <pre className="plain-code conflict-text" data-testid="conflict-expected">{failure.conflict.expected ?? t('timeline.nothing')}</pre>
                </div>
                <div>
                  <div className="conflict-label">{t('timeline.conflictActual')}</div>
                  <pre className="plain-code conflict-text" data-testid="conflict-actual">{failure.conflict.actual ?? t('timeline.nothing')}</pre>
                </div>
              </div>
            </div>
          ) : null}
        </>
      ) : (
        <p>{t('timeline.revertBody', { kind: t(kindLabel[entry.kind]), target: entry.target })}</p>
      )}
    </Dialog>
  )
}

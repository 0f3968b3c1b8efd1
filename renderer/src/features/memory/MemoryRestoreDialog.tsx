import { useState } from 'react'
import { describeRevertFailure, revertRefusalDetail, type WordedFailure } from '../../../../shared/i18n/describe'
import type { MemoryTargetName } from '../../../../shared/ipc/domain'
import type { MemoryLedgerEntry } from '../../../../shared/ledger'
import { useApp, useLocale, useT } from '../../app/context'
import { Dialog } from '../../components/Dialog'
import { Notice } from '../../components/Feedback'
import { fullTime } from '../../lib/time'
import type { RevertOutcome } from '../../stores/timeline'
import { versionText } from './memory-versions'

type Refusal = Extract<RevertOutcome, { ok: false }>

/** Asks before putting an entry back as a version left it; a refusal is said in the dialog, nothing is lost. */
export function MemoryRestoreDialog({ target, entry, onClose }: { target: MemoryTargetName; entry: MemoryLedgerEntry; onClose(): void }): React.JSX.Element {
  const t = useT()
  const locale = useLocale()
  const { memory, ui } = useApp()
  const [busy, setBusy] = useState(false)
  const [refusal, setRefusal] = useState<Refusal | null>(null)
  const store = t(`memory.${target}.title`)

  const confirm = async (): Promise<void> => {
    setBusy(true)
    const outcome = await memory.getState().restore(entry.id)
    setBusy(false)
    if (outcome.ok) {
      ui.getState().toast({ tone: 'success', text: t('memory.restored', { store }) })
      onClose()
    } else setRefusal(outcome)
  }

  // A refusal main gives a code is worded as the timeline words it; any other keeps its own words (by its key) underneath.
  const worded: WordedFailure | null = refusal ? (refusal.code ? describeRevertFailure(refusal, t) : { text: t('memory.restoreFailed'), detail: revertRefusalDetail(refusal, t) }) : null
  return (
    <Dialog
      title={refusal ? t('memory.restoreFailedTitle') : t('memory.restoreTitle')}
      onClose={onClose}
      actions={
        refusal ? (
          <button type="button" className="primary-button" onClick={onClose} data-autofocus>
            {t('common.close')}
          </button>
        ) : (
          <>
            <button type="button" className="secondary-button" onClick={onClose} data-autofocus>
              {t('common.cancel')}
            </button>
            <button type="button" className="primary-button" disabled={busy} onClick={() => void confirm()}>
              {busy ? t('memory.restoring') : t('memory.restore')}
            </button>
          </>
        )
      }
    >
      {worded ? (
        <Notice tone="error">
          {worded.text}
          {worded.detail ? <div className="notice-detail">{worded.detail}</div> : null}
        </Notice>
      ) : (
        <p>{t('memory.restoreBody', { store, when: fullTime(entry.at, locale) })}</p>
      )}
      <blockquote className="quote">{versionText(entry)}</blockquote>
    </Dialog>
  )
}

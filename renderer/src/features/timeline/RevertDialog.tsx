import { useState } from 'react'
import { describeRevertFailure } from '../../../../shared/i18n/describe'
import type { LedgerEntry } from '../../../../shared/ledger'
import { useApp, useT } from '../../app/context'
import { Dialog } from '../../components/Dialog'
import { Notice } from '../../components/Feedback'
import type { RevertOutcome } from '../../stores/timeline'
import { DiffViewer } from '../skills/DiffViewer'

type Failure = Extract<RevertOutcome, { ok: false }>

/**
 * Only a skill file can be reverted over newer text: a memory row is one entry among others (there is
 * no single entry to write over), and a deleted skill cannot come back over one of the same name.
 */
export function canRevertAnyway(entry: LedgerEntry): boolean {
  return entry.kind.startsWith('skill.') && entry.kind !== 'skill.delete'
}

/**
 * Asks before undoing a learned change. If the target moved on since, shows what changed (the change's
 * text against what is there now) and, for a skill, offers to revert anyway.
 */
export function RevertDialog({ entry, headline, targetLabel, onClose }: { entry: LedgerEntry; headline: string; targetLabel: string; onClose(): void }): React.JSX.Element {
  const t = useT()
  const { timeline, ui } = useApp()
  const [busy, setBusy] = useState(false)
  const [failure, setFailure] = useState<Failure | null>(null)

  const run = async (force: boolean): Promise<void> => {
    setBusy(true)
    const outcome = await timeline.getState().revert(entry.id, { force })
    setBusy(false)
    if (outcome.ok) {
      ui.getState().toast({ tone: 'success', text: t('timeline.reverted') })
      onClose()
    } else setFailure(outcome)
  }

  const worded = failure ? describeRevertFailure(failure, t) : null
  const conflict = failure?.conflict ?? null
  const forceable = conflict !== null && canRevertAnyway(entry)
  return (
    <Dialog
      title={failure ? t('timeline.revertFailedTitle') : t('timeline.revertTitle')}
      onClose={onClose}
      wide={conflict !== null}
      actions={
        forceable ? (
          <>
            <button type="button" className="secondary-button" onClick={onClose} data-autofocus>
              {t('common.cancel')}
            </button>
            <button type="button" className="danger-button" disabled={busy} onClick={() => void run(true)}>
              {busy ? t('timeline.reverting') : t('library.revertAnyway')}
            </button>
          </>
        ) : failure ? (
          <button type="button" className="primary-button" onClick={onClose} data-autofocus>
            {t('common.close')}
          </button>
        ) : (
          <>
            <button type="button" className="secondary-button" onClick={onClose} data-autofocus>
              {t('common.cancel')}
            </button>
            <button type="button" className="danger-button" disabled={busy} onClick={() => void run(false)}>
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
          {conflict ? (
            <div className="conflict">
              <p>{t('library.conflictLead')}</p>
              <DiffViewer before={conflict.expected} after={conflict.actual} fileName={targetLabel} />
              <p className="conflict-hint">{forceable ? t('library.revertAnywayHint') : entry.kind.startsWith('memory.') ? t('library.memoryConflictHint') : null}</p>
            </div>
          ) : null}
        </>
      ) : (
        <p>{t('timeline.revertBody', { kind: headline, target: targetLabel })}</p>
      )}
    </Dialog>
  )
}

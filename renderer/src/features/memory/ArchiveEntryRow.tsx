import { useState } from 'react'
import type { ArchiveEntryView } from '../../../../shared/ipc/contract-archive'
import { useLocale, useT } from '../../app/context'
import { Dialog } from '../../components/Dialog'
import { Icon } from '../../components/Icon'
import { fullTime, relativeTime, useNow } from '../../lib/time'

export interface ArchiveEntryActions {
  /** Null when it worked; else the words to show. */
  setHidden(id: number, hidden: boolean): Promise<string | null>
  remove(id: number): Promise<string | null>
  moveBack(id: number): Promise<string | null>
}

/**
 * One archived entry: its text, why it is there, when it was added and last recalled; "Don't bring this
 * up" (and its undo), remove, and "Move back to memory" when its store has room (`fits`).
 */
export function ArchiveEntryRow({ entry, fits, actions, showWhere = false }: { entry: ArchiveEntryView; fits: boolean; actions: ArchiveEntryActions; showWhere?: boolean }): React.JSX.Element {
  const t = useT()
  const locale = useLocale()
  const now = useNow()
  const [confirming, setConfirming] = useState(false)
  const [busy, setBusy] = useState(false)
  const [problem, setProblem] = useState<string | null>(null)
  const run = async (action: () => Promise<string | null>): Promise<void> => {
    setBusy(true)
    setProblem(await action())
    setBusy(false)
  }
  return (
    <li className={entry.hidden ? 'memory-entry archive-entry hidden' : 'memory-entry archive-entry'} aria-label={t('archive.entryLabel', { text: entry.text })}>
      <p className="memory-text">{entry.text}</p>
      <div className="memory-entry-foot">
        <p className="memory-info archive-info">
          {showWhere ? <span className="badge archive-where">{t('archive.where.archive')}</span> : null}
          <span className={`badge archive-source ${entry.source}`}>{t(`archive.source.${entry.source}`)}</span>
          <span>{t(`archive.store.${entry.target}`)}</span>
          <span title={fullTime(entry.addedAt, locale)}>{t('archive.addedAt', { when: relativeTime(entry.addedAt, now, locale) })}</span>
          <span title={entry.lastRecalledAt ? fullTime(entry.lastRecalledAt, locale) : undefined}>
            {entry.lastRecalledAt ? t('archive.recalledAt', { when: relativeTime(entry.lastRecalledAt, now, locale) }) : t('archive.neverRecalled')}
          </span>
        </p>
        <div className="memory-entry-actions archive-actions">
          {entry.hidden ? null : (
            <button type="button" className="ghost-button small" disabled={busy} onClick={() => void run(() => actions.setHidden(entry.id, true))}>
              <Icon name="ban" size={15} />
              {t('archive.hide')}
            </button>
          )}
          <button
            type="button"
            className="ghost-button small"
            disabled={busy || !fits}
            title={fits ? undefined : t('archive.moveBackFull')}
            onClick={() => void run(() => actions.moveBack(entry.id))}
          >
            <Icon name="revert" size={15} />
            {t('archive.moveBack')}
          </button>
          <button type="button" className="icon-button small" aria-label={t('archive.remove')} title={t('archive.remove')} disabled={busy} onClick={() => setConfirming(true)}>
            <Icon name="trash" size={15} />
          </button>
        </div>
      </div>
      {entry.hidden ? (
        <p className="archive-hidden" role="status">
          <span>{t('archive.hidden')}</span>
          <button type="button" className="link-button" disabled={busy} onClick={() => void run(() => actions.setHidden(entry.id, false))}>
            {t('archive.unhide')}
          </button>
        </p>
      ) : null}
      {problem ? (
        <p className="archive-problem" role="alert">
          {problem}
        </p>
      ) : null}
      {confirming ? (
        <Dialog
          title={t('archive.removeTitle')}
          onClose={() => setConfirming(false)}
          actions={
            <>
              <button type="button" className="secondary-button" onClick={() => setConfirming(false)} data-autofocus>
                {t('common.cancel')}
              </button>
              <button
                type="button"
                className="danger-button"
                onClick={() => {
                  setConfirming(false)
                  void run(() => actions.remove(entry.id))
                }}
              >
                {t('archive.remove')}
              </button>
            </>
          }
        >
          <p>{t('archive.removeBody')}</p>
          <blockquote className="quote">{entry.text}</blockquote>
        </Dialog>
      ) : null}
    </li>
  )
}

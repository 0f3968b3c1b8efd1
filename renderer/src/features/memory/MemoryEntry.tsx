import { useEffect, useId, useRef, useState } from 'react'
import type { MemoryEntryInfo, MemoryTargetName } from '../../../../shared/ipc/domain'
import { describeMemorySource } from '../../../../shared/i18n/describe-sources'
import { useApp, useLocale, useMemory, useSessions, useT } from '../../app/context'
import { Dialog } from '../../components/Dialog'
import { Notice } from '../../components/Feedback'
import { Icon } from '../../components/Icon'
import { fullTime, relativeTime, useNow } from '../../lib/time'
import { MemoryHistory } from './MemoryHistory'
import { HiddenNote, VisibilityLog } from './MemoryVisibility'

export interface MemoryEntryProps {
  target: MemoryTargetName
  text: string
  info: MemoryEntryInfo | null
  /** Characters the store has free; an edit may grow the entry by this much. */
  spare: number
}

/** One entry: its text, where it came from, a pin, its history (versions, restore), and edit / delete. */
export function MemoryEntry({ target, text, info, spare }: MemoryEntryProps): React.JSX.Element {
  const t = useT()
  const { memory } = useApp()
  const [editing, setEditing] = useState<string | null>(null)
  const [confirming, setConfirming] = useState(false)
  const [problem, setProblem] = useState<string | null>(null)
  const [pinning, setPinning] = useState(false)
  const [hiding, setHiding] = useState(false)
  const [showHistory, setShowHistory] = useState(false)
  const historyId = useId()
  const historyButton = useRef<HTMLButtonElement>(null)
  const pinned = info?.pinned ?? false
  const hidden = info?.hidden ?? false
  const justRestored = useMemory((s) => s.restored?.target === target && s.restored.text === text)

  // A restore replaced the row it started from: this row, the restored text, carries on with its history open.
  useEffect(() => {
    if (!justRestored) return
    memory.getState().clearRestored()
    setShowHistory(true)
    historyButton.current?.focus()
  }, [justRestored, memory])

  const save = async (): Promise<void> => {
    const content = editing?.trim()
    if (!content || content === text) return setEditing(null)
    const error = await memory.getState().replace(target, text, content)
    setProblem(error)
    if (!error) setEditing(null)
  }

  const remove = async (): Promise<void> => {
    setConfirming(false)
    setProblem(await memory.getState().remove(target, text))
  }

  const togglePin = async (): Promise<void> => {
    setPinning(true)
    setProblem(await memory.getState().setPinned(target, text, !pinned))
    setPinning(false)
  }

  const toggleHidden = async (): Promise<void> => {
    setHiding(true)
    setProblem(await memory.getState().setHidden(target, text, !hidden))
    setHiding(false)
  }

  const over = editing === null ? 0 : [...editing.trim()].length - [...text].length - spare
  const pinLabel = pinned ? t('memory.unpin') : t('memory.pin')
  return (
    <li className={['memory-entry', pinned ? 'pinned' : '', hidden ? 'hidden-entry' : ''].filter(Boolean).join(' ')}>
      {editing !== null ? (
        <div className="memory-edit">
          <textarea value={editing} rows={Math.min(8, Math.max(2, editing.split('\n').length))} autoFocus aria-label={t('memory.editLabel')} onChange={(event) => setEditing(event.target.value)} />
          <div className="memory-edit-bar">
            {over > 0 ? <span className="chars-left over">{t('memory.editOver', { count: over.toLocaleString() })}</span> : null}
            <button type="button" className="secondary-button small" onClick={() => setEditing(null)}>
              {t('common.cancel')}
            </button>
            <button type="button" className="primary-button small" disabled={over > 0} onClick={() => void save()}>
              {t('common.save')}
            </button>
          </div>
        </div>
      ) : (
        <>
          <p className="memory-text">{text}</p>
          {hidden && info ? <HiddenNote info={info} busy={hiding} onShow={() => void toggleHidden()} /> : null}
          <div className="memory-entry-foot">
            <Provenance info={info} />
            <div className="memory-entry-actions">
              <button
                type="button"
                className={pinned ? 'icon-button small pin-toggle on' : 'icon-button small pin-toggle'}
                aria-pressed={pinned}
                aria-label={t('memory.pinLabel')}
                title={`${pinLabel}: ${t('memory.pinHint')}`}
                disabled={pinning}
                onClick={() => void togglePin()}
              >
                <Icon name="pin" size={15} />
              </button>
              <button
                type="button"
                className={hidden ? 'icon-button small hide-toggle on' : 'icon-button small hide-toggle'}
                aria-pressed={hidden}
                aria-label={t('hide.label')}
                title={hidden ? `${t('hide.show')}: ${t('hide.showHint')}` : `${t('hide.label')}: ${t('hide.hint')}`}
                disabled={hiding || !info}
                onClick={() => void toggleHidden()}
              >
                <Icon name="eyeOff" size={15} />
              </button>
              <button
                ref={historyButton}
                type="button"
                className={showHistory ? 'icon-button small history-toggle on' : 'icon-button small history-toggle'}
                aria-label={t('memory.history')}
                title={t('memory.history')}
                aria-expanded={showHistory}
                aria-controls={showHistory ? historyId : undefined}
                onClick={() => setShowHistory((open) => !open)}
              >
                <Icon name="timeline" size={15} />
              </button>
              <button type="button" className="icon-button small" aria-label={t('memory.edit')} title={t('memory.edit')} onClick={() => setEditing(text)}>
                <Icon name="edit" size={15} />
              </button>
              <button type="button" className="icon-button small" aria-label={t('memory.delete')} title={t('memory.delete')} onClick={() => setConfirming(true)}>
                <Icon name="trash" size={15} />
              </button>
            </div>
          </div>
        </>
      )}
      {showHistory && editing === null ? <MemoryHistory target={target} text={text} id={historyId} /> : null}
      {showHistory && editing === null ? <VisibilityLog target={target} text={text} /> : null}
      {problem ? <Notice tone="error">{problem}</Notice> : null}
      {confirming ? (
        <Dialog
          title={t('memory.deleteTitle')}
          onClose={() => setConfirming(false)}
          actions={
            <>
              <button type="button" className="secondary-button" onClick={() => setConfirming(false)} data-autofocus>
                {t('common.cancel')}
              </button>
              <button type="button" className="danger-button" onClick={() => void remove()}>
                {t('memory.delete')}
              </button>
            </>
          }
        >
          <p>{t('memory.deleteBody')}</p>
          <blockquote className="quote">{text}</blockquote>
        </Dialog>
      ) : null}
    </li>
  )
}

/** Who wrote the entry and when, with the conversation it came from (a link that opens it). */
function Provenance({ info }: { info: MemoryEntryInfo | null }): React.JSX.Element | null {
  const t = useT()
  const locale = useLocale()
  const now = useNow()
  const { ui, chat } = useApp()
  const title = useSessions((s) => (info?.sessionId ? (s.list.find((item) => item.id === info.sessionId)?.title ?? null) : null))
  if (!info) return null
  const pinned = info.pinned ? <span className="badge warn memory-pinned">{t('memory.pinned')}</span> : null
  if (info.source === null || !info.updatedAt) {
    return (
      <p className="memory-info">
        {pinned}
        <span>{t('memory.info.byHand')}</span>
      </p>
    )
  }
  const at = Date.parse(info.updatedAt)
  const created = info.createdAt && info.createdAt !== info.updatedAt ? Date.parse(info.createdAt) : null
  // A rewrite already shows as the latest change: only a later repeat of the entry says more.
  const confirmed = info.confirmedAt && info.confirmedAt !== info.updatedAt ? Date.parse(info.confirmedAt) : null
  const sessionId = info.sessionId
  return (
    <p className="memory-info">
      {pinned}
      <span title={fullTime(at, locale)}>{describeMemorySource(info.source, relativeTime(at, now, locale), t, info.device)}</span>
      {created !== null ? <span title={fullTime(created, locale)}>{t('memory.info.firstSaved', { when: relativeTime(created, now, locale) })}</span> : null}
      {confirmed !== null ? <span title={fullTime(confirmed, locale)}>{t('memory.info.confirmed', { when: relativeTime(confirmed, now, locale) })}</span> : null}
      {sessionId ? (
        <button
          type="button"
          className="link-button"
          onClick={() => {
            ui.getState().navigate('chat')
            void chat.getState().openSession(sessionId)
          }}
        >
          {title ? t('memory.info.openNamed', { title }) : t('memory.info.open')}
        </button>
      ) : null}
    </p>
  )
}

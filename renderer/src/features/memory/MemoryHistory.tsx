import { useEffect, useState } from 'react'
import type { MemoryTargetName } from '../../../../shared/ipc/domain'
import type { MemoryLedgerEntry } from '../../../../shared/ledger'
import { useApp, useLocale, useMemory, useT } from '../../app/context'
import { Notice, Spinner } from '../../components/Feedback'
import { Icon } from '../../components/Icon'
import { fullTime, relativeTime, useNow } from '../../lib/time'
import type { EntryHistory } from '../../stores/memory'
import { DiffViewer } from '../skills/DiffViewer'
import { kindLabel } from '../timeline/labels'
import { describeLedgerSource } from '../../../../shared/i18n/describe-sources'
import { fileOf, versionText } from './memory-versions'
import { MemoryRestoreDialog } from './MemoryRestoreDialog'

const NONE: string[] = []

/**
 * Every version of one entry, newest first (when, who, the text): tick two to compare them in the
 * diff viewer, or restore one (after a confirm; itself a new version, so it can be undone).
 */
export function MemoryHistory({ target, text, id }: { target: MemoryTargetName; text: string; id: string }): React.JSX.Element {
  const t = useT()
  const { memory } = useApp()
  const [history, setHistory] = useState<EntryHistory | null>(null)

  useEffect(() => {
    let live = true
    void memory
      .getState()
      .history(target, text)
      .then((result) => live && setHistory(result))
    return () => {
      live = false
    }
  }, [memory, target, text])

  return (
    <section className="memory-history" id={id} aria-label={t('memory.historyTitle')}>
      {history === null ? (
        <Spinner label={t('common.loading')} />
      ) : !history.ok ? (
        <Notice tone="error">{t('memory.historyFailed', { error: history.error })}</Notice>
      ) : history.entries.length ? (
        <Versions target={target} text={text} entries={history.entries} />
      ) : (
        <p className="muted">{t('memory.historyEmpty')}</p>
      )}
    </section>
  )
}

function Versions({ target, text, entries }: { target: MemoryTargetName; text: string; entries: MemoryLedgerEntry[] }): React.JSX.Element {
  const t = useT()
  const locale = useLocale()
  const now = useNow()
  const { ui, chat } = useApp()
  // A version the store already holds (this entry as it reads now, or another entry) has nothing to restore.
  const held = useMemory((s) => s[target]?.entries ?? NONE)
  const [picks, setPicks] = useState<number[]>([])
  const [restoring, setRestoring] = useState<MemoryLedgerEntry | null>(null)
  const picked = picks.map((pick) => entries.find((entry) => entry.id === pick)).filter((entry): entry is MemoryLedgerEntry => Boolean(entry))
  const [older, newer] = [...picked].sort((a, b) => a.id - b.id)
  const when = (entry: MemoryLedgerEntry) => relativeTime(Date.parse(entry.at), now, locale)
  const toggle = (pick: number) => setPicks((list) => (list.includes(pick) ? list.filter((x) => x !== pick) : [...list, pick].slice(-2)))
  const currentId = entries.find((entry) => entry.after === text)?.id ?? null

  return (
    <div className="history">
      <p className="history-help">{t('memory.historyHelp')}</p>
      {older && newer ? (
        <section className="history-compare" aria-label={t('skills.compareTitle')}>
          <div className="history-compare-head">
            <span>{t('skills.comparing', { older: fullTime(older.at, locale), newer: fullTime(newer.at, locale) })}</span>
            <span className="spacer" />
            <button type="button" className="ghost-button small" onClick={() => setPicks([])}>
              {t('skills.compareClear')}
            </button>
          </div>
          <DiffViewer before={older.after} after={newer.after} fileName={fileOf(newer)} />
        </section>
      ) : picks.length === 1 ? (
        <p className="history-help">{t('memory.comparePickOther')}</p>
      ) : null}
      <ol className="memory-versions">
        {entries.map((entry) => {
          const version = versionText(entry)
          const removal = entry.kind === 'memory.remove'
          const restorable = version !== null && !held.includes(version)
          const sessionId = entry.sessionId
          return (
            <li key={entry.id} className={removal ? 'memory-version removal' : 'memory-version'}>
              <div className="memory-version-head">
                <input
                  type="checkbox"
                  className="history-pick"
                  checked={picks.includes(entry.id)}
                  // A removal left no text to compare against.
                  disabled={entry.after === null}
                  aria-label={t('memory.comparePick', { when: when(entry) })}
                  onChange={() => toggle(entry.id)}
                />
                <span className="history-kind">{t(kindLabel[entry.kind])}</span>
                <span className={`badge source-${entry.source}`}>{describeLedgerSource(entry.source, t)}</span>
                {entry.id === currentId ? <span className="badge current">{t('memory.version.current')}</span> : null}
                {entry.revertedBy !== null ? <span className="badge muted">{t('timeline.revertedBadge')}</span> : null}
                <span className="spacer" />
                <time className="entry-time" dateTime={entry.at} title={fullTime(entry.at, locale)}>
                  {when(entry)}
                </time>
              </div>
              {version !== null ? (
                <p className="memory-version-text">{version}</p>
              ) : null}
              {sessionId || restorable ? (
                <div className="memory-version-actions">
                {sessionId ? (
                  <button
                    type="button"
                    className="link-button"
                    onClick={() => {
                      ui.getState().navigate('chat')
                      void chat.getState().openSession(sessionId)
                    }}
                  >
                    {t('memory.info.open')}
                  </button>
                ) : null}
                <span className="spacer" />
                {restorable ? (
                  <button type="button" className="ghost-button small" onClick={() => setRestoring(entry)} aria-label={t('memory.restoreLabel', { when: when(entry) })}>
                    <Icon name="revert" size={15} />
                    {t('memory.restore')}
                  </button>
                ) : null}
                </div>
              ) : null}
            </li>
          )
        })}
      </ol>
      {restoring ? <MemoryRestoreDialog target={target} entry={restoring} onClose={() => setRestoring(null)} /> : null}
    </div>
  )
}

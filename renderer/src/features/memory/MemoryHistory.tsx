import { useEffect, useState } from 'react'
import type { MemoryTargetName } from '../../../../shared/ipc/domain'
import type { MemoryLedgerEntry } from '../../../../shared/ledger'
import { useApp, useLocale, useMemory, useT } from '../../app/context'
import { Notice, Spinner } from '../../components/Feedback'
import { Icon } from '../../components/Icon'
import { fullTime, relativeTime, useNow } from '../../lib/time'
import type { EntryHistory } from '../../stores/memory'
import { ComparePanel, ComparePick, useComparePicks } from '../skills/ComparePanel'
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
  const compare = useComparePicks(entries)
  const [restoring, setRestoring] = useState<MemoryLedgerEntry | null>(null)
  const when = (entry: MemoryLedgerEntry) => relativeTime(Date.parse(entry.at), now, locale)
  const currentId = entries.find((entry) => entry.after === text)?.id ?? null

  return (
    <div className="history">
      <p className="history-help">{t('memory.historyHelp')}</p>
      <ComparePanel compare={compare} fileOf={fileOf} pickOtherHint={t('memory.comparePickOther')} />
      <ol className="memory-versions">
        {entries.map((entry) => {
          const version = versionText(entry)
          const removal = entry.kind === 'memory.remove'
          const restorable = version !== null && !held.includes(version)
          const sessionId = entry.sessionId
          return (
            <li key={entry.id} className={removal ? 'memory-version removal' : 'memory-version'}>
              <div className="memory-version-head">
                <ComparePick
                  compare={compare}
                  id={entry.id}
                  // A removal left no text to compare against.
                  disabled={entry.after === null}
                  label={t('memory.comparePick', { when: when(entry) })}
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

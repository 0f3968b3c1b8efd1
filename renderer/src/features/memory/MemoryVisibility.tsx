import { useEffect, useState } from 'react'
import type { MemoryEntryInfo, MemoryTargetName } from '../../../../shared/ipc/domain'
import type { VisibilityChangeView } from '../../../../shared/ipc/contract-memory-layers'
import { useApp, useLocale, useMemory, useT } from '../../app/context'
import { Notice } from '../../components/Feedback'
import { Icon } from '../../components/Icon'
import { fullTime, relativeTime, useNow } from '../../lib/time'

/** A hidden entry's line: the badge, since when, and the way back ("Bring it up again"). */
export function HiddenNote({ info, busy, onShow }: { info: MemoryEntryInfo; busy: boolean; onShow: () => void }): React.JSX.Element {
  const t = useT()
  const locale = useLocale()
  const since = info.hiddenAt ? Date.parse(info.hiddenAt) : null
  return (
    <p className="memory-hidden-note">
      <span className="badge muted">
        <Icon name="eyeOff" size={13} />
        {t('hide.badge')}
      </span>
      <span title={since !== null ? t('hide.sinceTitle', { when: fullTime(since, locale) }) : undefined}>{t('hide.since')}</span>
      <button type="button" className="link-button" title={t('hide.showHint')} disabled={busy} onClick={onShow}>
        {t('hide.show')}
      </button>
    </p>
  )
}

/** Each time the user hid the entry or brought it up again, newest first (part of its history). */
export function VisibilityLog({ target, text }: { target: MemoryTargetName; text: string }): React.JSX.Element | null {
  const t = useT()
  const locale = useLocale()
  const now = useNow()
  const { memory } = useApp()
  const [changes, setChanges] = useState<VisibilityChangeView[] | null>(null)
  const [error, setError] = useState<string | null>(null)
  // Reloaded when the entry's info changes (a hide or show made here), so the log never lags the badge.
  const hiddenAt = useMemory((s) => s[target]?.info.find((info) => info.text === text)?.hiddenAt ?? null)

  useEffect(() => {
    let live = true
    void memory
      .getState()
      .visibilityHistory(target, text)
      .then((result) => {
        if (!live) return
        setChanges(result.ok ? result.changes : [])
        setError(result.ok ? null : result.error)
      })
    return () => {
      live = false
    }
  }, [memory, target, text, hiddenAt])

  if (error) return <Notice tone="error">{t('hide.historyFailed', { error })}</Notice>
  if (!changes?.length) return null
  return (
    <section className="memory-visibility-log" aria-label={t('hide.history')}>
      <h3 className="history-help">{t('hide.history')}</h3>
      <ol>
        {changes.map((change) => (
          <li key={`${change.at}-${change.hidden}`}>
            <Icon name={change.hidden ? 'eyeOff' : 'revert'} size={13} />
            <span>{change.hidden ? t('hide.historyHidden') : t('hide.historyShown')}</span>
            <time className="entry-time" dateTime={change.at} title={fullTime(change.at, locale)}>
              {relativeTime(Date.parse(change.at), now, locale)}
            </time>
          </li>
        ))}
      </ol>
    </section>
  )
}

import { memo } from 'react'
import type { SessionSummary } from '../../../shared/ipc/domain'
import { dateBucket, type DateBucket } from '../stores/sessions'
import { shortTime, useNow } from '../lib/time'
import type { MessageKey } from '../../../shared/i18n'
import { useApp, useChat, useLocale, useSessions, useT, useUi } from './context'

const bucketLabels: Record<DateBucket, MessageKey> = {
  today: 'sessions.today',
  yesterday: 'sessions.yesterday',
  week: 'sessions.week',
  older: 'sessions.older'
}

/** Conversations by last activity, newest first, in date sections. */
export function SessionList(): React.JSX.Element {
  const t = useT()
  const list = useSessions((s) => s.list)
  const loaded = useSessions((s) => s.loaded)
  const loadError = useSessions((s) => s.loadError)
  const running = useSessions((s) => s.running)
  const openId = useChat((s) => s.sessionId)
  const onChat = useUi((s) => s.view === 'chat')
  const now = useNow()

  if (loadError) return <p className="sidebar-message error">{loadError}</p>
  if (loaded && !list.length) return <p className="sidebar-message">{t('sessions.empty')}</p>

  const sorted = [...list].sort((a, b) => b.updatedAt - a.updatedAt)
  const sections: Array<{ bucket: DateBucket; sessions: SessionSummary[] }> = []
  for (const session of sorted) {
    const bucket = dateBucket(session.updatedAt, now)
    const last = sections[sections.length - 1]
    if (last?.bucket === bucket) last.sessions.push(session)
    else sections.push({ bucket, sessions: [session] })
  }
  return (
    <nav className="session-list" aria-label={t('sessions.label')}>
      {sections.map((section) => (
        <div key={section.bucket} className="session-section">
          <div className="sidebar-heading">{t(bucketLabels[section.bucket])}</div>
          <ul>
            {section.sessions.map((session) => (
              <SessionRow key={session.id} session={session} active={onChat && session.id === openId} running={Boolean(running[session.id])} now={now} />
            ))}
          </ul>
        </div>
      ))}
    </nav>
  )
}

const SessionRow = memo(function SessionRow({ session, active, running, now }: { session: SessionSummary; active: boolean; running: boolean; now: number }): React.JSX.Element {
  const t = useT()
  const locale = useLocale()
  const { chat, ui } = useApp()
  return (
    <li>
      <button
        type="button"
        className={active ? 'session-row active' : 'session-row'}
        aria-current={active ? 'page' : undefined}
        onClick={() => {
          ui.getState().navigate('chat')
          if (chat.getState().sessionId !== session.id) void chat.getState().openSession(session.id)
        }}
      >
        <span className="session-title">{session.title || t('chat.untitled')}</span>
        {running ? <span className="running-dot" aria-label={t('sessions.running')} /> : <time className="session-time">{shortTime(session.updatedAt, now, locale)}</time>}
      </button>
    </li>
  )
})

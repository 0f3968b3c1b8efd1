import { memo, useCallback, useRef, useState } from 'react'
import type { SessionSummary } from '../../../shared/ipc/domain'
import { dateBucket, type DateBucket } from '../stores/sessions'
import { shortTime, useNow } from '../lib/time'
import type { MessageKey } from '../../../shared/i18n'
import { useApp, useChat, useLocale, useSessions, useT, useUi } from './context'
import { SessionMenu } from './SessionMenu'

const bucketLabels: Record<DateBucket, MessageKey> = {
  today: 'sessions.today',
  yesterday: 'sessions.yesterday',
  week: 'sessions.week',
  older: 'sessions.older'
}

interface Section {
  key: string
  label: MessageKey
  sessions: SessionSummary[]
}

/** Pinned conversations first, then the rest by last activity in date sections; archived ones behind a toggle. */
export function SessionList(): React.JSX.Element {
  const t = useT()
  const list = useSessions((s) => s.list)
  const loaded = useSessions((s) => s.loaded)
  const loadError = useSessions((s) => s.loadError)
  const running = useSessions((s) => s.running)
  const openId = useChat((s) => s.sessionId)
  const onChat = useUi((s) => s.view === 'chat')
  const now = useNow()
  const [showArchived, setShowArchived] = useState(false)

  if (loadError) return <p className="sidebar-message error">{loadError}</p>
  if (loaded && !list.length) return <p className="sidebar-message">{t('sessions.empty')}</p>

  const sorted = [...list].sort((a, b) => b.updatedAt - a.updatedAt)
  const archived = sorted.filter((s) => s.archived)
  const sections: Section[] = []
  const pinned = sorted.filter((s) => s.pinned && !s.archived)
  if (pinned.length) sections.push({ key: 'pinned', label: 'sessions.pinned', sessions: pinned })
  for (const session of sorted) {
    if (session.pinned || session.archived) continue
    const bucket = dateBucket(session.updatedAt, now)
    const last = sections[sections.length - 1]
    if (last?.key === bucket) last.sessions.push(session)
    else sections.push({ key: bucket, label: bucketLabels[bucket], sessions: [session] })
  }
  if (showArchived && archived.length) sections.push({ key: 'archived', label: 'sessions.archived', sessions: archived })

  return (
    <nav className="session-list" aria-label={t('sessions.label')}>
      {sections.map((section) => (
        <div key={section.key} className="session-section">
          <div className="sidebar-heading">{t(section.label)}</div>
          <ul aria-label={t(section.label)}>
            {section.sessions.map((session) => (
              <SessionRow key={session.id} session={session} active={onChat && session.id === openId} running={Boolean(running[session.id])} now={now} />
            ))}
          </ul>
        </div>
      ))}
      {archived.length ? (
        <button type="button" className="archived-toggle" aria-expanded={showArchived} onClick={() => setShowArchived(!showArchived)}>
          {showArchived ? t('sessions.hideArchived') : t('sessions.showArchived', { count: archived.length })}
        </button>
      ) : null}
    </nav>
  )
}

const SessionRow = memo(function SessionRow({ session, active, running, now }: { session: SessionSummary; active: boolean; running: boolean; now: number }): React.JSX.Element {
  const t = useT()
  const locale = useLocale()
  const { chat, ui } = useApp()
  const [menuOpen, setMenuOpen] = useState(false)
  const more = useRef<HTMLButtonElement>(null)
  // Focus goes back where the menu came from, so a keyboard user keeps their place in the list.
  const closeMenu = useCallback(() => {
    setMenuOpen(false)
    more.current?.focus()
  }, [])
  const title = session.title || t('chat.untitled')
  return (
    <li
      className={menuOpen ? 'session-item menu-open' : 'session-item'}
      onContextMenu={(event) => {
        event.preventDefault()
        setMenuOpen(true)
      }}
    >
      <button
        type="button"
        className={active ? 'session-row active' : 'session-row'}
        aria-current={active ? 'page' : undefined}
        onClick={() => {
          ui.getState().navigate('chat')
          if (chat.getState().sessionId !== session.id) void chat.getState().openSession(session.id)
        }}
      >
        <span className="session-title">{title}</span>
        {running ? <span className="running-dot" aria-label={t('sessions.running')} /> : <time className="session-time">{shortTime(session.updatedAt, now, locale)}</time>}
      </button>
      <button
        ref={more}
        type="button"
        className="session-more"
        aria-label={t('sessions.more')}
        title={t('sessions.more')}
        aria-haspopup="menu"
        aria-expanded={menuOpen}
        onClick={() => setMenuOpen(!menuOpen)}
      >
        ⋯
      </button>
      {menuOpen ? <SessionMenu session={session} onClose={closeMenu} /> : null}
    </li>
  )
})

import { memo, useCallback, useRef, useState } from 'react'
import type { SessionSummary } from '../../../shared/ipc/domain'
import { shortTime } from '../lib/time'
import { useApp, useLocale, useT } from './context'
import { SessionMenu } from './SessionMenu'
import { UnansweredMark } from './UnansweredMark'
import { isUnansweredConversation } from '../../../shared/turn-failure'

interface SessionRowProps {
  session: SessionSummary
  /** Its place among the loaded rows, for moving between rows with the arrow keys. */
  index: number
  active: boolean
  running: boolean
  now: number
}

/** One conversation in the sidebar: opens it on click; "⋯" or a right-click opens its menu. */
export const SessionRow = memo(function SessionRow({ session, index, active, running, now }: SessionRowProps): React.JSX.Element {
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
    <div
      className={menuOpen ? 'session-item menu-open' : 'session-item'}
      onContextMenu={(event) => {
        event.preventDefault()
        setMenuOpen(true)
      }}
    >
      <button
        type="button"
        className={active ? 'session-row active' : 'session-row'}
        data-row={index}
        aria-current={active ? 'page' : undefined}
        onClick={() => {
          ui.getState().navigate('chat')
          if (chat.getState().sessionId !== session.id) void chat.getState().openSession(session.id)
        }}
      >
        <span className="session-title">{title}</span>
        {isUnansweredConversation(session) ? <UnansweredMark /> : null}
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
    </div>
  )
})

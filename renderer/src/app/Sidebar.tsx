import type { MessageKey } from '../../../shared/i18n'
import type { View } from '../stores/ui'
import { Icon, Logo, type IconName } from '../components/Icon'
import { useApp, useSessions, useSettings, useT, useUi } from './context'
import { SearchBox, SearchResults } from './SessionSearch'
import { SessionList } from './SessionList'
import { InboxReminder } from '../features/inbox/InboxReminder'
import { effectiveMode } from '../stores/settings'

const destinations: Array<{ view: View; icon: IconName; label: MessageKey }> = [
  { view: 'timeline', icon: 'timeline', label: 'nav.timeline' },
  { view: 'inbox', icon: 'inbox', label: 'nav.inbox' },
  { view: 'skills', icon: 'skills', label: 'nav.skills' },
  { view: 'memory', icon: 'memory', label: 'nav.memory' }
]

export function Sidebar(): React.JSX.Element {
  const t = useT()
  const { chat, ui, sessions } = useApp()
  const view = useUi((s) => s.view)
  const searching = useSessions((s) => s.query.trim().length > 0)
  const pending = useSettings((s) => s.learning?.pendingProposals ?? 0)

  return (
    <aside className="sidebar">
      <div className="sidebar-top">
        <div className="brand">
          <Logo />
          <span>Cairn</span>
        </div>
        <button
          type="button"
          className="icon-button"
          aria-label={t('nav.newChat')}
          title={t('nav.newChat')}
          onClick={() => {
            ui.getState().navigate('chat')
            sessions.getState().clearSearch()
            chat.getState().newChat()
          }}
        >
          <Icon name="compose" />
        </button>
      </div>
      <SearchBox />
      <nav className="sidebar-nav" aria-label={t('nav.label')}>
        {destinations.map((item) => (
          <button
            key={item.view}
            type="button"
            className={view === item.view ? 'nav-item active' : 'nav-item'}
            aria-current={view === item.view ? 'page' : undefined}
            aria-label={item.view === 'inbox' && pending > 0 ? t('nav.inboxCount', { count: pending }) : undefined}
            onClick={() => ui.getState().navigate(item.view)}
          >
            <Icon name={item.icon} />
            <span>{t(item.label)}</span>
            {item.view === 'inbox' && pending > 0 ? (
              <span className="nav-count" data-testid="inbox-badge">
                {pending > 99 ? '99+' : pending}
              </span>
            ) : null}
          </button>
        ))}
      </nav>
      <InboxReminder where="sidebar" />
      <div className="sidebar-scroll">{searching ? <SearchResults /> : <SessionList />}</div>
      <div className="sidebar-footer">
        <button
          type="button"
          className={view === 'settings' ? 'nav-item active' : 'nav-item'}
          aria-current={view === 'settings' ? 'page' : undefined}
          onClick={() => ui.getState().navigate('settings')}
        >
          <Icon name="settings" />
          <span>{t('nav.settings')}</span>
        </button>
        <LearningBadge />
      </div>
    </aside>
  )
}

/** A small light: learning on, paused (needs attention) or off. */
function LearningBadge(): React.JSX.Element | null {
  const t = useT()
  const { ui } = useApp()
  const learning = useSettings((s) => s.learning)
  if (!learning) return null
  const mode = effectiveMode(learning)
  const state = mode === 'off' ? 'off' : learning.paused ? 'paused' : learning.running ? 'running' : mode === 'ask' ? 'ask' : 'on'
  const label = t(`learning.badge.${state}` as MessageKey)
  return (
    <button type="button" className={`learning-badge ${state === 'ask' ? 'on' : state}`} onClick={() => ui.getState().navigate('settings')} title={label} aria-label={label}>
      <span className="learning-light" />
      <span className="learning-text">{label}</span>
    </button>
  )
}

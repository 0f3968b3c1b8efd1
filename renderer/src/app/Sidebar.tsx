import { useCallback, useEffect, useRef } from 'react'
import type { MessageKey } from '../../../shared/i18n'
import type { View } from '../stores/ui'
import { Icon, Logo, type IconName } from '../components/Icon'
import { useApp, useSessions, useSettings, useT, useUi } from './context'
import { SearchBox, SearchResults, useSearchCombobox } from './SessionSearch'
import { SessionList } from './SessionList'
import { InboxReminder } from '../features/inbox/InboxReminder'
import { effectiveMode } from '../stores/settings'
import { startNewChat } from './shortcuts-actions'

const destinations: Array<{ view: View; icon: IconName; label: MessageKey }> = [
  { view: 'timeline', icon: 'timeline', label: 'nav.timeline' },
  { view: 'inbox', icon: 'inbox', label: 'nav.inbox' },
  { view: 'skills', icon: 'skills', label: 'nav.skills' },
  { view: 'memory', icon: 'memory', label: 'nav.memory' }
]

/**
 * The sidebar: new chat, search, the screens, the conversations, Settings. Folded (by its button, or
 * always in a narrow window) it is a rail of icons; its button or Ctrl/Cmd+K then shows it whole
 * over the screen until the user picks something, presses Esc or clicks outside.
 */
export function Sidebar({ narrow }: { narrow: boolean }): React.JSX.Element {
  const t = useT()
  const app = useApp()
  const { ui } = app
  const view = useUi((s) => s.view)
  const folded = useUi((s) => narrow || s.sidebarCollapsed)
  const peek = useUi((s) => s.sidebarPeek) && folded
  const searching = useSessions((s) => s.query.trim().length > 0)
  const pending = useSettings((s) => s.learning?.pendingProposals ?? 0)
  const toggle = useRef<HTMLButtonElement>(null)
  const combo = useSearchCombobox()
  const rail = folded && !peek
  const shown = !folded || peek
  const toggleLabel = shown ? t('layout.hideSidebar') : t('layout.showSidebar')

  const closePeek = useCallback((): void => {
    ui.getState().setSidebarPeek(false)
    toggle.current?.focus()
  }, [ui])

  // Esc puts it away from anywhere (menus, dialogs and the search box take their own Esc first).
  useEffect(() => {
    if (!peek) return
    const onKey = (event: KeyboardEvent): void => {
      if (event.key !== 'Escape' || event.defaultPrevented) return
      event.preventDefault()
      closePeek()
    }
    window.addEventListener('keydown', onKey)
    return () => window.removeEventListener('keydown', onKey)
  }, [peek, closePeek])

  return (
    <>
      <aside
        className={rail ? 'sidebar rail' : peek ? 'sidebar peek' : 'sidebar'}
        aria-label={t('layout.sidebar')}
        onClick={(event) => {
          // Over the screen, picking a conversation or a screen puts the sidebar away again.
          if (peek && (event.target as Element).closest('.session-row, .search-hit, .nav-item, .new-chat')) ui.getState().setSidebarPeek(false)
        }}
      >
        <div className="sidebar-top">
          <button
            ref={toggle}
            type="button"
            className="icon-button sidebar-toggle"
            aria-label={toggleLabel}
            title={toggleLabel}
            aria-expanded={shown}
            aria-keyshortcuts="Control+B Meta+B"
            onClick={() => ui.getState().toggleSidebar(narrow)}
          >
            <Icon name="sidebar" />
          </button>
          <div className="brand">
            <Logo />
            <span>Cairn</span>
          </div>
          <button
            type="button"
            className="icon-button new-chat"
            aria-label={t('nav.newChat')}
            title={t('nav.newChat')}
            aria-keyshortcuts="Control+N Meta+N"
            onClick={() => startNewChat(app)}
          >
            <Icon name="compose" />
          </button>
        </div>
        <SearchBox combo={combo} />
        <nav className="sidebar-nav" aria-label={t('nav.label')}>
          {destinations.map((item) => (
            <button
              key={item.view}
              type="button"
              className={view === item.view ? 'nav-item active' : 'nav-item'}
              aria-current={view === item.view ? 'page' : undefined}
              aria-label={item.view === 'inbox' && pending > 0 ? t('nav.inboxCount', { count: pending }) : rail ? t(item.label) : undefined}
              title={rail ? t(item.label) : undefined}
              onClick={() => ui.getState().navigate(item.view)}
            >
              <Icon name={item.icon} />
              <span className="nav-label">{t(item.label)}</span>
              {item.view === 'inbox' && pending > 0 ? (
                <span className="nav-count" data-testid="inbox-badge">
                  {pending > 99 ? '99+' : pending}
                </span>
              ) : null}
            </button>
          ))}
        </nav>
        <InboxReminder where="sidebar" />
        <div className="sidebar-scroll">{searching ? <SearchResults combo={combo} /> : <SessionList />}</div>
        <div className="sidebar-footer">
          <button
            type="button"
            className={view === 'settings' ? 'nav-item active' : 'nav-item'}
            aria-current={view === 'settings' ? 'page' : undefined}
            aria-label={rail ? t('nav.settings') : undefined}
            title={rail ? t('nav.settings') : undefined}
            aria-keyshortcuts="Control+Comma Meta+Comma"
            onClick={() => ui.getState().navigate('settings')}
          >
            <Icon name="settings" />
            <span className="nav-label">{t('nav.settings')}</span>
          </button>
          <LearningBadge />
        </div>
      </aside>
      {peek ? <div className="sidebar-scrim" aria-hidden="true" onMouseDown={closePeek} /> : null}
    </>
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
    <button type="button" className={`learning-badge ${state === 'ask' ? 'on' : state}`} onClick={() => ui.getState().openSettings('learning')} title={label} aria-label={label}>
      <span className="learning-light" />
      <span className="learning-text">{label}</span>
    </button>
  )
}

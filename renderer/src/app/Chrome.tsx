import { useEffect } from 'react'
import { resolveTheme, type UiStore } from '../stores/ui'
import { Icon } from '../components/Icon'
import { useApp, useT, useUi } from './context'
import { isNarrowWindow } from './layout-width'
import { isTypingTarget, shortcutActionFor } from './shortcuts'
import { copyLastAnswer, startNewChat } from './shortcuts-actions'
import { goBack, goForward } from './history'

/** Keeps `<html data-theme lang>` in step with the UI store and the OS theme. */
export function applyTheme(ui: UiStore, root: HTMLElement = document.documentElement): () => void {
  const media = typeof window.matchMedia === 'function' ? window.matchMedia('(prefers-color-scheme: dark)') : null
  const paint = (): void => {
    const { theme, language } = ui.getState()
    root.dataset.theme = resolveTheme(theme, media?.matches ?? false)
    root.lang = language
  }
  paint()
  const unsubscribe = ui.subscribe(paint)
  media?.addEventListener?.('change', paint)
  return () => {
    unsubscribe()
    media?.removeEventListener?.('change', paint)
  }
}

/** "Reconnecting…" while the browser-mode socket is down. */
export function ConnectionBanner(): React.JSX.Element | null {
  const t = useT()
  const connection = useUi((s) => s.connection)
  if (connection === 'open') return null
  return (
    <div className="connection-banner" role="status">
      <span className="pulse-dot" />
      {connection === 'connecting' ? t('connection.connecting') : t('connection.reconnecting')}
    </div>
  )
}

export function Toasts(): React.JSX.Element {
  const t = useT()
  const { ui } = useApp()
  const toasts = useUi((s) => s.toasts)
  return (
    <div className="toasts" aria-live="polite">
      {toasts.map((toast) => (
        <div key={toast.id} className={`toast ${toast.tone}`} role={toast.tone === 'error' ? 'alert' : 'status'}>
          <Icon name={toast.tone === 'learned' ? 'sparkle' : toast.tone === 'error' ? 'alert' : toast.tone === 'success' ? 'check' : 'info'} size={16} />
          <span className="toast-text">{toast.text}</span>
          {toast.action ? (
            <button
              type="button"
              className="ghost-button small"
              onClick={() => {
                ui.getState().navigate(toast.action!.view)
                ui.getState().dismissToast(toast.id)
              }}
            >
              {toast.action.label}
            </button>
          ) : null}
          <button type="button" className="icon-button small" aria-label={t('common.dismiss')} onClick={() => ui.getState().dismissToast(toast.id)}>
            <Icon name="close" size={13} />
          </button>
        </div>
      ))}
    </div>
  )
}

/** Window-wide keys, as listed in `shortcuts.ts` (the help dialog shows the same list). */
export function useGlobalKeys(): void {
  const app = useApp()
  useEffect(() => {
    const onKey = (event: KeyboardEvent): void => {
      if (event.defaultPrevented || event.isComposing) return
      const action = shortcutActionFor(event, isTypingTarget(event.target))
      if (!action) return
      event.preventDefault()
      const ui = app.ui.getState()
      switch (action) {
        case 'newChat':
          return startNewChat(app)
        case 'newIncognitoChat':
          return startNewChat(app, { incognito: true })
        case 'search':
          // A folded sidebar hides the search box: show it over the screen first.
          if (ui.sidebarCollapsed || isNarrowWindow()) ui.setSidebarPeek(true)
          return ui.focusSearch()
        case 'sidebar':
          return ui.toggleSidebar(isNarrowWindow())
        case 'settings':
          return ui.navigate('settings')
        case 'help':
          return ui.setShortcutsOpen(!ui.shortcutsOpen)
        case 'copyAnswer':
          return void copyLastAnswer(app)
        case 'back':
          return goBack()
        case 'forward':
          return goForward()
        case 'promptLibrary':
          // The library's dialog lives beside the composer, on the chat screen.
          ui.navigate('chat')
          return app.prompts.getState().openLibrary()
      }
    }
    window.addEventListener('keydown', onKey)
    return () => window.removeEventListener('keydown', onKey)
  }, [app])
}

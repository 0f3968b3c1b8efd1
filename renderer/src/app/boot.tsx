import { StrictMode } from 'react'
import { createRoot } from 'react-dom/client'
import { createClient } from '../ipc/client'
import { hashWithoutSession, pickTransport, sessionFromHash, type WindowKind } from '../ipc/pick-transport'
import { createUiStore } from '../stores/ui'
import { MissingToken } from './App'
import { createAppState, type AppState } from './app-state'
import { applyTheme } from './Chrome'
import { connectApp, loadInitial } from './connect'
import { AppProvider } from './context'
import { connectHistory } from './history'

/** Starts a window: picks the transport, builds the stores, wires events, renders `root`. */
export function boot(windowKind: WindowKind, root: React.ReactNode, onReady?: (app: AppState) => void): void {
  const container = document.getElementById('root')
  if (!container) throw new Error('The page has no #root element.')
  const choice = pickTransport(window, windowKind)
  if (choice.kind === 'missing-token') {
    const ui = createUiStore()
    applyTheme(ui)
    createRoot(container).render(<MissingToken language={ui.getState().language} />)
    return
  }
  const app = createAppState(createClient(choice.transport), { windowKind })
  applyTheme(app.ui)
  connectApp(app)
  // Browser mode: the quick prompt's "Open in Cairn" opens this page on its conversation.
  const requested = windowKind === 'main' && choice.transport.mode === 'browser' ? sessionFromHash(window.location.hash) : null
  if (requested) {
    window.history.replaceState(null, '', hashWithoutSession(window.location.hash))
    app.ui.getState().navigate('chat')
  }
  // The main window's screens are history entries (Back and Forward); the quick prompt has one screen.
  if (windowKind === 'main') connectHistory(app.ui, window, { mouseButtons: choice.transport.mode === 'desktop' })
  void loadInitial(app, { restore: windowKind === 'main', openSessionId: requested })
  onReady?.(app)
  createRoot(container).render(
    <StrictMode>
      <AppProvider app={app}>{root}</AppProvider>
    </StrictMode>
  )
}

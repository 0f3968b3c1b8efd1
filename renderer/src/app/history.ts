import { splitHash } from '../ipc/pick-transport'
import { SETTINGS_SECTIONS, type SettingsSection, type UiStore, type View } from '../stores/ui'

/** A place in the main window that Back and Forward move between: a screen, and Settings' section. */
export interface Route {
  view: View
  section?: SettingsSection
}

/** What each history entry carries: its route, and how many app entries lie behind it (0: the first). */
interface EntryState {
  cairn: Route
  depth: number
}

// Whether the screen shown was reached by Back/Forward (a screen may then put the user back where they were).
let restoredByHistory = false

/** True while the screen shown came from Back or Forward rather than a fresh navigation. */
export function cameThroughHistory(): boolean {
  return restoredByHistory
}

export type HistoryWindow = Pick<Window, 'history' | 'location' | 'addEventListener' | 'removeEventListener'>

const VIEWS: readonly View[] = ['chat', 'timeline', 'inbox', 'skills', 'memory', 'settings']

// The hash is `#/<view>[/<section>]`, then `?` and the page's other parameters (browser mode's
// `token=…`), which stay as they are: the route never replaces what authenticates the page.

/** The route a hash names, or null when it names none (or one this version does not know). */
export function parseRoute(hash: string): Route | null {
  const [view, section] = splitHash(hash).path.split('/').filter(Boolean)
  if (!VIEWS.includes(view as View)) return null
  if (view !== 'settings') return { view: view as View }
  return SETTINGS_SECTIONS.includes(section as SettingsSection) ? { view: 'settings', section: section as SettingsSection } : { view: 'settings' }
}

/** The hash for `route`, keeping the current hash's parameters. */
export function routeHash(route: Route, currentHash = ''): string {
  const path = route.view === 'settings' && route.section ? `/settings/${route.section}` : `/${route.view}`
  const { params } = splitHash(currentHash)
  return params ? `#${path}?${params}` : `#${path}`
}

function routeOf(state: { view: View; settingsSection: SettingsSection }): Route {
  return state.view === 'settings' ? { view: 'settings', section: state.settingsSection } : { view: state.view }
}

function entryOf(state: unknown): EntryState | null {
  const entry = state as Partial<EntryState> | null
  return entry && typeof entry === 'object' && entry.cairn && typeof entry.depth === 'number' ? (entry as EntryState) : null
}

/**
 * Makes the main window's screens history entries: each navigation pushes one (`#/timeline`,
 * `#/settings/provider`), Back and Forward restore the screen without pushing again. On start a
 * route in the address (a deep link, or the entry a reload lands on) wins over the screen saved from
 * last time; the first entry is replaced, not pushed. Returns a function that stops listening.
 */
export function connectHistory(ui: UiStore, win: HistoryWindow = window, options: { mouseButtons?: boolean } = {}): () => void {
  let restoring = false
  const linked = parseRoute(win.location.hash)
  if (linked) ui.setState(linked.section ? { settingsSection: linked.section } : {})
  if (linked && linked.view !== ui.getState().view) ui.getState().navigate(linked.view)
  let depth = entryOf(win.history.state)?.depth ?? 0
  const write = (kind: 'push' | 'replace'): void => {
    const route = routeOf(ui.getState())
    const state: EntryState = { cairn: route, depth }
    const hash = routeHash(route, win.location.hash)
    if (kind === 'push') win.history.pushState(state, '', hash)
    else win.history.replaceState(state, '', hash)
  }
  write('replace')

  const unsubscribe = ui.subscribe((state, previous) => {
    if (restoring) return
    const moved = state.view !== previous.view || (state.view === 'settings' && state.settingsSection !== previous.settingsSection)
    if (!moved) return
    restoredByHistory = false
    depth += 1
    write('push')
  })

  const onPopState = (event: PopStateEvent): void => {
    const entry = entryOf(event.state)
    const route = entry?.cairn ?? parseRoute(win.location.hash)
    if (!route) return
    restoring = true
    restoredByHistory = true
    try {
      if (route.section) ui.setState({ settingsSection: route.section })
      ui.getState().navigate(route.view)
    } finally {
      restoring = false
    }
    if (entry) depth = entry.depth
    else {
      // An address typed by hand: a new entry on top of the one it came from.
      depth += 1
      write('replace')
    }
  }
  // The desktop app's page gets a mouse's back and forward buttons as plain clicks (a browser acts on them itself).
  const onMouseUp = (event: MouseEvent): void => {
    if (event.button === 3) goBack(win)
    if (event.button === 4) goForward(win)
  }
  win.addEventListener('popstate', onPopState)
  if (options.mouseButtons) win.addEventListener('mouseup', onMouseUp)
  return () => {
    unsubscribe()
    win.removeEventListener('popstate', onPopState)
    win.removeEventListener('mouseup', onMouseUp)
  }
}

/** Back within the app: from its first entry nothing happens, so the keys never leave Cairn. */
export function goBack(win: Pick<Window, 'history'> = window): void {
  if ((entryOf(win.history.state)?.depth ?? 0) > 0) win.history.back()
}

export function goForward(win: Pick<Window, 'history'> = window): void {
  win.history.forward()
}

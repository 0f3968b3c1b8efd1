import { createStore, type StoreApi } from 'zustand/vanilla'
import { createJSONStorage, persist } from 'zustand/middleware'
import type { Language } from '../../../shared/i18n'
import type { ConnectionStatus } from '../ipc/transport'

export type View = 'chat' | 'timeline' | 'inbox' | 'skills' | 'memory' | 'settings'
/** The sections of Settings, each addressable (an error's "Open settings" lands on the one that fixes it). */
export const SETTINGS_SECTIONS = ['provider', 'learning', 'search', 'tools', 'data', 'appearance'] as const
export type SettingsSection = (typeof SETTINGS_SECTIONS)[number]
export type Theme = 'system' | 'light' | 'dark'
export type { Language }

export interface Toast {
  id: number
  tone: 'info' | 'success' | 'error' | 'learned'
  text: string
  /** Optional jump, e.g. a learned change → the timeline. */
  action?: { label: string; view: View }
}

export interface UiState {
  view: View
  /** The Settings section shown (or scrolled to) when Settings is open. */
  settingsSection: SettingsSection
  theme: Theme
  language: Language
  connection: ConnectionStatus
  toasts: Toast[]
  /** Bumped to ask the session search box to take focus (Ctrl/Cmd+K). */
  searchFocusRequest: number
  /** The conversation open in this window, reopened after a reload (mid-stream it re-attaches). */
  lastSessionId: string | null
  /** The sidebar folded to a rail of icons in a wide window (remembered; narrow windows always fold it). */
  sidebarCollapsed: boolean
  /** The full sidebar shown over the screen while folded (narrow window, or Ctrl/Cmd+K), until a pick. */
  sidebarPeek: boolean
  /** The keyboard shortcuts dialog is open. */
  shortcutsOpen: boolean
  navigate(view: View): void
  /** Settings, at the section that fixes the problem at hand. */
  openSettings(section: SettingsSection): void
  setTheme(theme: Theme): void
  setLanguage(language: Language): void
  setConnection(status: ConnectionStatus): void
  toast(toast: Omit<Toast, 'id'>, ttlMs?: number): number
  dismissToast(id: number): void
  focusSearch(): void
  setLastSession(sessionId: string | null): void
  /** The chrome's sidebar button: folds/unfolds in a wide window, shows/hides the overlay in a narrow one. */
  toggleSidebar(narrow: boolean): void
  setSidebarPeek(open: boolean): void
  setShortcutsOpen(open: boolean): void
}

export type UiStore = StoreApi<UiState>

export const UI_STORAGE_KEY = 'cairn.ui'

/**
 * The only store that persists, and only window preferences (durable data lives in main). Each
 * window kind has its own key so the quick prompt never overwrites the main window's state.
 */
export function createUiStore(storageKey = UI_STORAGE_KEY): UiStore {
  let nextToast = 1
  return createStore<UiState>()(
    persist(
      (set, get) => ({
        view: 'chat',
        settingsSection: 'provider',
        theme: 'system',
        language: 'en',
        connection: 'open',
        toasts: [],
        searchFocusRequest: 0,
        lastSessionId: null,
        sidebarCollapsed: false,
        sidebarPeek: false,
        shortcutsOpen: false,
        // A toast's jump to this screen has done its job once the screen is open.
        navigate: (view) => set({ view, toasts: get().toasts.filter((toast) => toast.action?.view !== view) }),
        openSettings(settingsSection) {
          set({ settingsSection })
          get().navigate('settings')
        },
        setTheme: (theme) => set({ theme }),
        setLanguage: (language) => set({ language }),
        setConnection: (connection) => set({ connection }),
        toast(toast, ttlMs = 6000) {
          const id = nextToast++
          set({ toasts: [...get().toasts.slice(-3), { ...toast, id }] })
          if (ttlMs > 0) setTimeout(() => get().dismissToast(id), ttlMs)
          return id
        },
        dismissToast: (id) => set({ toasts: get().toasts.filter((t) => t.id !== id) }),
        focusSearch: () => set({ searchFocusRequest: get().searchFocusRequest + 1 }),
        setLastSession: (lastSessionId) => set({ lastSessionId }),
        toggleSidebar(narrow) {
          if (narrow) set({ sidebarPeek: !get().sidebarPeek })
          else set({ sidebarCollapsed: !get().sidebarCollapsed, sidebarPeek: false })
        },
        setSidebarPeek: (sidebarPeek) => set({ sidebarPeek }),
        setShortcutsOpen: (shortcutsOpen) => set({ shortcutsOpen })
      }),
      {
        name: storageKey,
        storage: createJSONStorage(() => localStorage),
        partialize: (state) => ({
          theme: state.theme,
          language: state.language,
          view: state.view,
          lastSessionId: state.lastSessionId,
          sidebarCollapsed: state.sidebarCollapsed
        })
      }
    )
  )
}

/** The theme actually shown: `system` follows the OS. */
export function resolveTheme(theme: Theme, prefersDark: boolean): 'light' | 'dark' {
  return theme === 'system' ? (prefersDark ? 'dark' : 'light') : theme
}

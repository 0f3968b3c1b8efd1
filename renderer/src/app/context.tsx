import { createContext, useContext, useMemo, type ReactNode } from 'react'
import { useStore } from 'zustand'
import type { ChatState } from '../stores/chat'
import type { CurationState } from '../stores/curation'
import type { InboxState } from '../stores/inbox'
import type { MemoryState } from '../stores/memory'
import type { SessionsState } from '../stores/sessions'
import type { SettingsState } from '../stores/settings'
import type { SkillsState } from '../stores/skills'
import type { TimelineState } from '../stores/timeline'
import type { UiState } from '../stores/ui'
import { localeOf, translator, type Translate } from '../../../shared/i18n'
import type { AppState } from './app-state'

/** Exported for components that work with or without an app around them (markdown links). */
export const AppContextValue = createContext<AppState | null>(null)

export function AppProvider({ app, children }: { app: AppState; children: ReactNode }): React.JSX.Element {
  return <AppContextValue.Provider value={app}>{children}</AppContextValue.Provider>
}

export function useApp(): AppState {
  const app = useContext(AppContextValue)
  if (!app) throw new Error('useApp must be used inside <AppProvider>.')
  return app
}

export const useChat = <T,>(selector: (state: ChatState) => T): T => useStore(useApp().chat, selector)
export const useSessions = <T,>(selector: (state: SessionsState) => T): T => useStore(useApp().sessions, selector)
export const useTimeline = <T,>(selector: (state: TimelineState) => T): T => useStore(useApp().timeline, selector)
export const useInbox = <T,>(selector: (state: InboxState) => T): T => useStore(useApp().inbox, selector)
export const useCuration = <T,>(selector: (state: CurationState) => T): T => useStore(useApp().curation, selector)
export const useSkills = <T,>(selector: (state: SkillsState) => T): T => useStore(useApp().skills, selector)
export const useMemory = <T,>(selector: (state: MemoryState) => T): T => useStore(useApp().memory, selector)
export const useSettings = <T,>(selector: (state: SettingsState) => T): T => useStore(useApp().settings, selector)
export const useUi = <T,>(selector: (state: UiState) => T): T => useStore(useApp().ui, selector)

/** The translate function for the current language; re-renders when the language changes. */
export function useT(): Translate {
  const language = useUi((s) => s.language)
  return useMemo(() => translator(language), [language])
}

export function useLocale(): string {
  return localeOf(useUi((s) => s.language))
}

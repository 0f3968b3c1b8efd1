import type { CairnClient } from '../ipc/client'
import { wordErrorsIn } from '../ipc/error-words'
import { translate } from '../../../shared/i18n'
import { createChatStore, type ChatStore } from '../stores/chat'
import { createCurationStore, type CurationStore } from '../stores/curation'
import { createInboxStore, type InboxStore } from '../stores/inbox'
import { createMemoryStore, type MemoryStore } from '../stores/memory'
import { createModelsStore, type ModelsStore } from '../stores/models'
import { createPromptsStore, type PromptsStore } from '../stores/prompts'
import { createSessionsStore, type SessionsStore } from '../stores/sessions'
import { createSettingsStore, type SettingsStore } from '../stores/settings'
import { createSkillsStore, type SkillsStore } from '../stores/skills'
import type { FrameScheduler } from '../stores/stream-buffer'
import { createTimelineStore, type TimelineStore } from '../stores/timeline'
import { createUiStore, UI_STORAGE_KEY, type UiStore } from '../stores/ui'

/** Everything a window holds: the client and one vanilla store per area (usable outside React). */
export interface AppState {
  client: CairnClient
  chat: ChatStore
  sessions: SessionsStore
  timeline: TimelineStore
  inbox: InboxStore
  /** "Tidy the library now": the pass asked for, and how it ended. */
  curation: CurationStore
  skills: SkillsStore
  memory: MemoryStore
  settings: SettingsStore
  models: ModelsStore
  /** The prompt library (saved prompts, the `/` menu). */
  prompts: PromptsStore
  ui: UiStore
}

export interface AppStateOptions {
  windowKind?: 'main' | 'quick'
  frames?: FrameScheduler
}

export function createAppState(client: CairnClient, options: AppStateOptions = {}): AppState {
  const sessions = createSessionsStore(client)
  const models = createModelsStore(client, sessions)
  const chat = createChatStore({
    client,
    frames: options.frames,
    newChatModel: () => models.getState().nextModel,
    olderPages: options.windowKind !== 'quick',
    onSessionStarted: () => void sessions.getState().load(),
    // Leaving an incognito chat discards it: a plain confirm, which the keyboard and both themes handle natively.
    confirmDiscard: () => typeof window.confirm !== 'function' || window.confirm(translate(ui.getState().language, 'incognito.confirmClose'))
  })
  const ui = createUiStore(options.windowKind === 'quick' ? `${UI_STORAGE_KEY}.quick` : UI_STORAGE_KEY)
  wordErrorsIn(() => ui.getState().language)
  return {
    client,
    chat,
    sessions,
    timeline: createTimelineStore(client),
    inbox: createInboxStore(client),
    curation: createCurationStore(client),
    skills: createSkillsStore(client),
    memory: createMemoryStore(client),
    settings: createSettingsStore(client),
    models,
    prompts: createPromptsStore(client),
    ui
  }
}

import { createStore, type StoreApi } from 'zustand/vanilla'
import type { CairnConfig, ConfigPatch, LearningMode } from '../../../shared/config'
import type { AppInfo, ConnectionTest as ConnectionTestResult, LearningStatus, SettingsView } from '../../../shared/ipc/domain'
import { type CairnClient } from '../ipc/client'
import { describeError } from '../ipc/error-words'

/** What the last connection test found, or why the request itself failed (`message`, from the transport). */
export type ConnectionTest = ConnectionTestResult | { ok: false; code: 'request_failed'; message: string; models: string[] }

export interface SettingsState {
  view: SettingsView | null
  info: AppInfo | null
  learning: LearningStatus | null
  loadError: string | null
  saving: boolean
  /** The last save's failure, shown next to the form. */
  saveError: string | null
  testing: boolean
  test: ConnectionTest | null
  /** Models the last successful test listed (fills the picker). */
  models: string[]
  local: { ollama: boolean; lmstudio: boolean } | null
  load(): Promise<void>
  loadInfo(): Promise<void>
  loadLearning(): Promise<void>
  update(patch: ConfigPatch): Promise<boolean>
  /** `which`: the chat key (default), the key for `learning.baseURL`, or the key for `search.embeddingBaseURL`. */
  setApiKey(apiKey: string | null, which?: 'chat' | 'learning' | 'embedding' | 'memoryProvider'): Promise<boolean>
  testConnection(input: { preset?: string; baseURL?: string; model?: string; apiKey?: string }): Promise<ConnectionTest>
  detectLocal(): Promise<void>
  resumeLearning(): Promise<void>
  /** Auto / Ask / Off; false when main refused (the reason is in `saveError`). */
  setLearningMode(mode: LearningMode): Promise<boolean>
  /** The Inbox count changed (`inbox.changed`): the badge shows it at once, the oldest's time follows. */
  pendingChanged(pending: number): void
  /** Another window (or the CLI) changed config.json. */
  configChanged(config: CairnConfig): void
}

export type SettingsStore = StoreApi<SettingsState>

export function createSettingsStore(client: CairnClient): SettingsStore {
  return createStore<SettingsState>()((set, get) => ({
    view: null,
    info: null,
    learning: null,
    loadError: null,
    saving: false,
    saveError: null,
    testing: false,
    test: null,
    models: [],
    local: null,

    async load() {
      try {
        const view = await client.request('settings.get')
        set({ view, loadError: null })
      } catch (error) {
        set({ loadError: describeError(error) })
      }
    },

    async loadInfo() {
      try {
        set({ info: await client.request('app.info') })
      } catch (error) {
        set({ loadError: describeError(error) })
      }
    },

    async loadLearning() {
      try {
        set({ learning: await client.request('learning.status') })
      } catch {
        // The status line just stays as it was.
      }
    },

    async update(patch) {
      set({ saving: true, saveError: null })
      try {
        const view = await client.request('settings.update', { patch: patch as Record<string, unknown> })
        set({ view, saving: false })
        void get().loadInfo()
        if (patch.learning) void get().loadLearning()
        return true
      } catch (error) {
        set({ saving: false, saveError: describeError(error) })
        return false
      }
    },

    async setApiKey(apiKey, which = 'chat') {
      set({ saving: true, saveError: null })
      try {
        const view = await client.request('settings.setApiKey', { apiKey, ...(which !== 'chat' ? { which } : {}) })
        set({ view, saving: false })
        void get().loadInfo()
        return true
      } catch (error) {
        set({ saving: false, saveError: describeError(error) })
        return false
      }
    },

    async testConnection(input) {
      set({ testing: true, test: null })
      let test: ConnectionTest
      try {
        test = await client.request('settings.testConnection', input)
      } catch (error) {
        test = { ok: false, code: 'request_failed', message: describeError(error), models: [] }
      }
      set({ testing: false, test, ...(test.models.length ? { models: test.models } : {}) })
      return test
    },

    async detectLocal() {
      try {
        set({ local: await client.request('settings.detectLocal') })
      } catch {
        set({ local: { ollama: false, lmstudio: false } })
      }
    },

    async resumeLearning() {
      try {
        set({ learning: await client.request('learning.resume') })
      } catch (error) {
        set({ saveError: describeError(error) })
      }
    },

    async setLearningMode(mode) {
      set({ saving: true, saveError: null })
      try {
        let learning = await client.request('learning.setMode', { mode })
        // Off used to be the on/off switch: choosing a learning mode turns learning back on.
        if (mode !== 'off' && !learning.enabled) learning = await client.request('learning.setEnabled', { enabled: true })
        set({ learning, saving: false })
        void get().load()
        return true
      } catch (error) {
        set({ saving: false, saveError: describeError(error) })
        return false
      }
    },

    pendingChanged(pending) {
      const learning = get().learning
      if (learning) set({ learning: { ...learning, pendingProposals: pending, ...(pending === 0 ? { oldestPendingAt: null } : {}) } })
      void get().loadLearning()
    },

    configChanged(config) {
      const view = get().view
      if (view) set({ view: { ...view, config } })
      // The key hint and its storage are not in the event: ask again.
      void get().load()
      void get().loadInfo()
    }
  }))
}

/** The mode learning is really in: Off whenever learning is switched off, whatever the mode says. */
export function effectiveMode(status: Pick<LearningStatus, 'enabled' | 'mode'>): LearningMode {
  return status.enabled ? status.mode : 'off'
}

/** How long a proposal may wait before the Inbox and the sidebar remind the user of it. */
export const REMIND_AFTER_MS = 24 * 60 * 60 * 1000

/** Since when the oldest proposal waits, when that is longer than a day; null otherwise. */
export function overdueSince(status: Pick<LearningStatus, 'pendingProposals' | 'oldestPendingAt'> | null, now: number): number | null {
  if (!status || status.pendingProposals <= 0 || status.oldestPendingAt === null) return null
  return now - status.oldestPendingAt > REMIND_AFTER_MS ? status.oldestPendingAt : null
}

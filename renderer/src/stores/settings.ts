import { createStore, type StoreApi } from 'zustand/vanilla'
import type { CairnConfig, ConfigPatch } from '../../../shared/config'
import type { AppInfo, ConnectionTest as ConnectionTestResult, LearningStatus, SettingsView } from '../../../shared/ipc/domain'
import { errorMessage, type CairnClient } from '../ipc/client'

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
  setApiKey(apiKey: string | null): Promise<boolean>
  testConnection(input: { preset?: string; baseURL?: string; model?: string; apiKey?: string }): Promise<ConnectionTest>
  detectLocal(): Promise<void>
  resumeLearning(): Promise<void>
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
        set({ loadError: errorMessage(error) })
      }
    },

    async loadInfo() {
      try {
        set({ info: await client.request('app.info') })
      } catch (error) {
        set({ loadError: errorMessage(error) })
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
        set({ saving: false, saveError: errorMessage(error) })
        return false
      }
    },

    async setApiKey(apiKey) {
      set({ saving: true, saveError: null })
      try {
        const view = await client.request('settings.setApiKey', { apiKey })
        set({ view, saving: false })
        void get().loadInfo()
        return true
      } catch (error) {
        set({ saving: false, saveError: errorMessage(error) })
        return false
      }
    },

    async testConnection(input) {
      set({ testing: true, test: null })
      let test: ConnectionTest
      try {
        test = await client.request('settings.testConnection', input)
      } catch (error) {
        test = { ok: false, code: 'request_failed', message: errorMessage(error), models: [] }
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
        set({ saveError: errorMessage(error) })
      }
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

import { createStore, type StoreApi } from 'zustand/vanilla'
import type { ModelList, SessionSummary } from '../../../shared/ipc/domain'
import { type CairnClient } from '../ipc/client'
import { describeError } from '../ipc/error-words'
import type { SessionsStore } from './sessions'

export interface ModelsState {
  /** The provider's models as main has them cached (null until first loaded). */
  list: ModelList | null
  loading: boolean
  /** The request itself failed (the transport's message); a provider that failed is `list.error`. */
  loadError: string | null
  /** The model for the conversation about to start in this window; null: the default (Settings). */
  nextModel: string | null
  /** Main answers from its cache unless `refresh`; it fetches by itself for a provider address it has no list for. */
  load(options?: { refresh?: boolean }): Promise<void>
  setNextModel(model: string | null): void
  /** The open conversation answers with `model` from its next turn on (null: the default). */
  setConversationModel(sessionId: string, model: string | null): Promise<SessionSummary>
  /** Saves the conversation's own instructions and restarts its prompt. */
  setInstructions(sessionId: string, instructions: string): Promise<SessionSummary>
}

export type ModelsStore = StoreApi<ModelsState>

export function createModelsStore(client: CairnClient, sessions: SessionsStore): ModelsStore {
  // The sessions list is what the header reads: patch it at once (the `sessions.changed` reload follows).
  const patchSession = (updated: SessionSummary): SessionSummary => {
    sessions.setState({ list: sessions.getState().list.map((item) => (item.id === updated.id ? updated : item)) })
    return updated
  }
  return createStore<ModelsState>()((set) => ({
    list: null,
    loading: false,
    loadError: null,
    nextModel: null,

    async load(options = {}) {
      set({ loading: true, loadError: null })
      try {
        const list = await client.request('models.list', options.refresh ? { refresh: true } : {})
        set({ list, loading: false })
      } catch (error) {
        set({ loading: false, loadError: describeError(error) })
      }
    },

    setNextModel: (nextModel) => set({ nextModel }),

    async setConversationModel(sessionId, model) {
      return patchSession(await client.request('sessions.setModel', { sessionId, model }))
    },

    async setInstructions(sessionId, instructions) {
      return patchSession(await client.request('sessions.setInstructions', { sessionId, instructions }))
    }
  }))
}

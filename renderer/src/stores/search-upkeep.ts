import { createStore, type StoreApi } from 'zustand/vanilla'
import type { SearchUpkeep } from '../../../shared/ipc/contract-search'
import { type CairnClient } from '../ipc/client'
import { describeError } from '../ipc/error-words'

export interface SearchUpkeepState {
  status: SearchUpkeep | null
  /** The last request's failure (main's message), shown under the section. */
  failure: string | null
  /** "Fill now" or "Pause" was pressed and has not answered yet. */
  acting: boolean
  load(): Promise<void>
  /** `search.changed`: the new status. */
  changed(status: SearchUpkeep): void
  fillMeaning(): Promise<void>
  pauseMeaning(): Promise<void>
}

export type SearchUpkeepStore = StoreApi<SearchUpkeepState>

/** Settings → Search: the word index's backlog and search by meaning, live through `search.changed`. */
export function createSearchUpkeepStore(client: CairnClient): SearchUpkeepStore {
  return createStore<SearchUpkeepState>()((set) => {
    const act = async (route: 'search.fillMeaning' | 'search.pauseMeaning'): Promise<void> => {
      set({ acting: true, failure: null })
      try {
        set({ status: await client.request(route) })
      } catch (error) {
        set({ failure: describeError(error) })
      } finally {
        set({ acting: false })
      }
    }
    return {
      status: null,
      failure: null,
      acting: false,
      async load() {
        try {
          set({ status: await client.request('search.status'), failure: null })
        } catch (error) {
          set({ failure: describeError(error) })
        }
      },
      changed(status) {
        set({ status })
      },
      fillMeaning: () => act('search.fillMeaning'),
      pauseMeaning: () => act('search.pauseMeaning')
    }
  })
}

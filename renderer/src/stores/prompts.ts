import { createStore, type StoreApi } from 'zustand/vanilla'
import type { RouteInput } from '../../../shared/ipc/contract'
import type { PromptFileProblem, SavedPrompt } from '../../../shared/prompts'
import { type CairnClient } from '../ipc/client'
import { describeError } from '../ipc/error-words'

export interface PromptsState {
  prompts: SavedPrompt[]
  /** Files under prompts/ that could not be read (shown in the library, never hidden). */
  problems: PromptFileProblem[]
  loaded: boolean
  loadError: string | null
  /** The "Prompt library" dialog is open (from the `/` menu or its shortcut). */
  libraryOpen: boolean
  /** Reads the folder again: each time the `/` menu opens, so edits made elsewhere (an editor, a sync) show up. */
  load(): Promise<void>
  openLibrary(): void
  closeLibrary(): void
  /** Saves one prompt; answers the error to show, or null when it was saved. */
  save(input: RouteInput<'prompts.save'>): Promise<string | null>
  remove(name: string): Promise<string | null>
}

export type PromptsStore = StoreApi<PromptsState>

export function createPromptsStore(client: CairnClient): PromptsStore {
  let seq = 0
  return createStore<PromptsState>()((set, get) => {
    const write = async (run: () => Promise<unknown>): Promise<string | null> => {
      try {
        await run()
        await get().load()
        return null
      } catch (error) {
        return describeError(error)
      }
    }
    return {
      prompts: [],
      problems: [],
      loaded: false,
      loadError: null,
      libraryOpen: false,
      async load() {
        const mine = ++seq
        try {
          const { prompts, problems } = await client.request('prompts.list')
          if (mine === seq) set({ prompts, problems, loaded: true, loadError: null })
        } catch (error) {
          if (mine === seq) set({ loaded: true, loadError: describeError(error) })
        }
      },
      openLibrary() {
        set({ libraryOpen: true })
        void get().load()
      },
      closeLibrary: () => set({ libraryOpen: false }),
      save: (input) => write(() => client.request('prompts.save', input)),
      remove: (name) => write(() => client.request('prompts.delete', { name }))
    }
  })
}

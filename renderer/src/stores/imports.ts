import { createStore, type StoreApi } from 'zustand/vanilla'
import type { IpcErrorParams } from '../../../shared/ipc/define'
import type { ImportActivity, ImportBatchInfo, ImportReportInfo, ImportSourceId, ImportSourceInfo, ImportUndoInfo } from '../../../shared/ipc/contract-import'
import type { CairnClient } from '../ipc/client'
import { failureOf as caughtFailure } from '../ipc/error-words'

/** A request that failed, kept as its code and figures so the section words it in the user's language. */
export interface ImportFailure {
  code: string
  params: IpcErrorParams | null
  message: string
  key?: string | null
}

export interface ImportsState {
  sources: ImportSourceInfo[] | null
  activity: ImportActivity | null
  batches: ImportBatchInfo[] | null
  source: ImportSourceId | null
  /** The location as typed or picked. */
  path: string
  /** The preview of `source` at `path`; cleared when either changes. */
  preview: ImportReportInfo | null
  previewing: boolean
  /** The last action's failure, shown under the form. */
  failure: ImportFailure | null
  /** The last undo's outcome, shown above the list. */
  undone: ImportUndoInfo | null
  load(): Promise<void>
  /** `import.changed`: the new activity (a finished import also refreshes the list). */
  changed(activity: ImportActivity): void
  chooseSource(source: ImportSourceId): void
  setPath(path: string): void
  /** The system picker for the source's location (a folder or an export file). */
  pick(): Promise<void>
  runPreview(): Promise<void>
  runImport(): Promise<void>
  undo(id: number): Promise<boolean>
  learn(importId?: number): Promise<void>
  cancelLearn(): Promise<void>
  refreshBatches(): Promise<void>
}

export type ImportsStore = StoreApi<ImportsState>

function failureOf(error: unknown): ImportFailure {
  const { code, params, message, key } = caughtFailure(error)
  return { code, params: params ?? null, message, key }
}

export function createImportsStore(client: CairnClient): ImportsStore {
  return createStore<ImportsState>()((set, get) => {
    /** Runs a request, keeping its failure for the section to word. */
    const attempt = async <T>(run: () => Promise<T>): Promise<T | undefined> => {
      set({ failure: null })
      try {
        return await run()
      } catch (error) {
        set({ failure: failureOf(error) })
        return undefined
      }
    }
    return {
      sources: null,
      activity: null,
      batches: null,
      source: null,
      path: '',
      preview: null,
      previewing: false,
      failure: null,
      undone: null,

      async load() {
        await attempt(async () => {
          const [{ sources }, activity, { batches }] = await Promise.all([client.request('import.sources'), client.request('import.status'), client.request('import.list')])
          set({ sources, activity, batches })
          if (get().source === null && sources[0]) get().chooseSource(sources[0].id)
        })
      },

      changed(activity) {
        const before = get().activity
        set({ activity })
        const importEnded = before?.running && !activity.running
        const learningMoved = before && before.learning.done !== activity.learning.done
        if (importEnded || learningMoved || (before?.learning.running && !activity.learning.running)) void get().refreshBatches()
        if (importEnded && activity.last?.report) set({ preview: null })
      },

      chooseSource(source) {
        const info = get().sources?.find((candidate) => candidate.id === source)
        set({ source, path: info?.defaultPath ?? '', preview: null, failure: null })
      },

      setPath(path) {
        set({ path, preview: null })
      },

      async pick() {
        const { source, path } = get()
        if (!source) return
        const picked = await attempt(() => client.request('import.pick', { source, ...(path.trim() ? { defaultPath: path.trim() } : {}) }))
        if (picked?.path) get().setPath(picked.path)
      },

      async runPreview() {
        const { source, path } = get()
        if (!source) return
        set({ previewing: true, preview: null })
        const preview = await attempt(() => client.request('import.preview', { source, path }))
        set({ previewing: false, preview: preview ?? null })
      },

      async runImport() {
        const { source, path } = get()
        if (!source) return
        const activity = await attempt(() => client.request('import.run', { source, path }))
        if (activity) set({ activity })
      },

      async undo(id) {
        set({ undone: null })
        const undone = await attempt(() => client.request('import.undo', { id }))
        if (!undone) return false
        set({ undone })
        await get().refreshBatches()
        return true
      },

      async learn(importId) {
        const activity = await attempt(() => client.request('import.learn', importId === undefined ? {} : { importId }))
        if (activity) set({ activity })
      },

      async cancelLearn() {
        const activity = await attempt(() => client.request('import.learnCancel'))
        if (activity) set({ activity })
      },

      async refreshBatches() {
        try {
          const { batches } = await client.request('import.list')
          set({ batches })
        } catch (error) {
          set({ failure: failureOf(error) })
        }
      }
    }
  })
}

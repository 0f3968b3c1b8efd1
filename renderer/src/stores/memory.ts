import { createStore, type StoreApi } from 'zustand/vanilla'
import type { MemoryResultView, MemoryStoreView, MemoryTargetName } from '../../../shared/ipc/domain'
import type { VisibilityChangeView } from '../../../shared/ipc/contract-memory-layers'
import type { ProjectMemoryView } from '../../../shared/ipc/domain-project'
import type { MemoryLedgerEntry, RevertResult } from '../../../shared/ledger'
import { isMemoryEntry } from '../../../shared/ledger-names'
import { type CairnClient } from '../ipc/client'
import { describeError } from '../ipc/error-words'
import type { RevertOutcome } from './timeline'

/**
 * What adding an entry came to: saved; already there word for word (nothing added); refused because an
 * entry says nearly the same or the opposite (`similar`, to replace instead); or an error to show.
 */
export type AddOutcome =
  | { kind: 'added' }
  | { kind: 'duplicate' }
  | { kind: 'similar'; similar: NonNullable<MemoryResultView['similar']> }
  | { kind: 'error'; error: string }

/** An entry's versions (ledger rows, newest first), or why they could not be read. */
export type EntryHistory = { ok: true; entries: MemoryLedgerEntry[] } | { ok: false; error: string }

export interface MemoryState {
  memory: MemoryStoreView | null
  user: MemoryStoreView | null
  /** The current workspace's project memory (null: none chosen, or not loaded yet). */
  project: ProjectMemoryView | null
  /** The workspace the Project card shows; every project change goes to its PROJECT.md. */
  workspace: string | null
  loaded: boolean
  loadError: string | null
  /** `workspace`: the one to show the project memory of (kept for the next loads); none keeps the last. */
  load(workspace?: string | null): Promise<void>
  /** `allowSimilar`: keep it beside an entry that says nearly the same or the opposite (the user chose to). */
  add(target: MemoryTargetName, content: string, options?: { allowSimilar?: boolean }): Promise<AddOutcome>
  /** Each returns an error message to show, or null when it worked. */
  replace(target: MemoryTargetName, oldText: string, content: string): Promise<string | null>
  remove(target: MemoryTargetName, text: string): Promise<string | null>
  /** A pinned entry is never changed by learning without asking. */
  setPinned(target: MemoryTargetName, text: string, pinned: boolean): Promise<string | null>
  /** "Don't bring this up" (hidden) or bring it up again; applies from the next conversation. */
  setHidden(target: MemoryTargetName, text: string, hidden: boolean): Promise<string | null>
  /** When the user hid the entry and brought it up again, newest first. */
  visibilityHistory(target: MemoryTargetName, text: string): Promise<{ ok: true; changes: VisibilityChangeView[] } | { ok: false; error: string }>
  /** The rows that made `text` what it is, newest first. */
  history(target: MemoryTargetName, text: string): Promise<EntryHistory>
  /** Puts an entry back as ledger row `ledgerId` left it, then reloads both stores. */
  restore(ledgerId: number): Promise<RevertOutcome>
  /** The entry a restore just wrote: its row opens its history and takes the focus (the old row is gone). */
  restored: { target: MemoryTargetName; text: string } | null
  clearRestored(): void
}

export type MemoryStore = StoreApi<MemoryState>

export interface Usage {
  current: number
  limit: number
  /** 0–100, rounded, capped at 100. */
  percent: number
  level: 'ok' | 'warn' | 'full'
}

/** How full a store is; past 90% it warns, at the limit it is full. */
export function usageOf(current: number, limit: number): Usage {
  if (limit <= 0) return { current, limit, percent: 100, level: 'full' }
  const ratio = current / limit
  const percent = Math.min(100, Math.round(ratio * 100))
  const level = ratio >= 1 ? 'full' : ratio > 0.9 ? 'warn' : 'ok'
  return { current, limit, percent, level }
}

/** Characters left after adding `extra` (what the add form shows as you type). */
export function remainingAfter(view: Pick<MemoryStoreView, 'entries' | 'current' | 'limit'>, extra: string): number {
  // Entries are joined by a separator line in the file; counting it keeps the estimate honest.
  const separator = view.entries.length ? 3 : 0
  return view.limit - view.current - [...extra].length - (extra ? separator : 0)
}

export function createMemoryStore(client: CairnClient): MemoryStore {
  const run = async (request: () => Promise<{ success: boolean; error?: string; message?: string }>, reload: () => Promise<void>): Promise<string | null> => {
    try {
      const result = await request()
      await reload()
      return result.success ? null : (result.error ?? result.message ?? 'Cairn could not change this memory.')
    } catch (error) {
      return describeError(error)
    }
  }
  return createStore<MemoryState>()((set, get) => {
  /** A project change names the workspace whose PROJECT.md it is. */
  const where = (target: MemoryTargetName): { workspace?: string } => {
    const workspace = get().workspace
    return target === 'project' && workspace ? { workspace } : {}
  }
  const reload = () => get().load()
  return {
    memory: null,
    user: null,
    project: null,
    workspace: null,
    loaded: false,
    loadError: null,
    restored: null,

    async load(workspace) {
      if (workspace !== undefined) set({ workspace })
      const folder = get().workspace
      try {
        // The project card is extra: a folder it cannot read (gone, another device's path) leaves the other two shown.
        const projectLoad = folder ? client.request('memory.project', { workspace: folder }).catch(() => null) : Promise.resolve(null)
        const [{ memory, user }, project] = await Promise.all([client.request('memory.get'), projectLoad])
        set({ memory, user, project, loaded: true, loadError: null })
      } catch (error) {
        set({ loaded: true, loadError: describeError(error) })
      }
    },

    async add(target, content, options = {}) {
      let result: MemoryResultView | null = null
      const error = await run(async () => (result = await client.request('memory.add', { target, content, ...options, ...where(target) })), reload)
      const answer = result as MemoryResultView | null
      if (answer?.similar) return { kind: 'similar', similar: answer.similar }
      if (error !== null) return { kind: 'error', error }
      return answer?.duplicate ? { kind: 'duplicate' } : { kind: 'added' }
    },
    replace: (target, oldText, content) => run(() => client.request('memory.replace', { target, oldText, content, ...where(target) }), reload),
    remove: (target, text) => run(() => client.request('memory.remove', { target, text, ...where(target) }), reload),
    setPinned: (target, text, pinned) => run(() => client.request('memory.setPinned', { target, text, pinned, ...where(target) }).then(() => ({ success: true })), reload),

    setHidden: (target, text, hidden) => run(() => client.request('memory.setHidden', { target, text, hidden }).then(() => ({ success: true })), get().load),
    async visibilityHistory(target, text) {
      try {
        return { ok: true, changes: await client.request('memory.visibilityHistory', { target, entry: text }) }
      } catch (error) {
        return { ok: false, error: describeError(error) }
      }
    },

    async history(target, text) {
      try {
        const rows = await client.request('memory.history', { target, entry: text, ...where(target) })
        return { ok: true, entries: rows.filter(isMemoryEntry) }
      } catch (error) {
        return { ok: false, error: describeError(error) }
      }
    },

    async restore(ledgerId) {
      try {
        const result: RevertResult = await client.request('memory.restore', { ledgerId })
        if (!result.ok) return { ok: false, code: result.code ?? null, key: result.key, params: result.params, error: result.error, conflict: result.conflict ?? null }
        const row = result.revertEntry
        if (isMemoryEntry(row) && row.after !== null) set({ restored: { target: row.meta.store, text: row.after } })
        await get().load()
        return { ok: true }
      } catch (error) {
        return { ok: false, code: null, error: describeError(error), conflict: null }
      }
    },

    clearRestored: () => set({ restored: null })
  }
  })
}

import { createStore, type StoreApi } from 'zustand/vanilla'
import type { SearchHit, SessionExportFile, SessionSummary } from '../../../shared/ipc/domain'
import { errorMessage, type CairnClient } from '../ipc/client'

export interface SessionsState {
  list: SessionSummary[]
  loaded: boolean
  loadError: string | null
  /** Conversations with a turn in progress (from `chat.status`). */
  running: Record<string, boolean>
  query: string
  searching: boolean
  hits: SearchHit[] | null
  searchError: string | null
  load(): Promise<void>
  setQuery(query: string): void
  search(query: string): Promise<void>
  clearSearch(): void
  setRunning(sessionId: string, running: boolean): void
  rename(sessionId: string, title: string): Promise<void>
  remove(sessionId: string): Promise<void>
  setFlags(sessionId: string, flags: { pinned?: boolean; archived?: boolean }): Promise<void>
  exportFile(sessionId: string, format: 'md' | 'json'): Promise<SessionExportFile>
}

export type SessionsStore = StoreApi<SessionsState>

export function createSessionsStore(client: CairnClient): SessionsStore {
  let searchSeq = 0
  return createStore<SessionsState>()((set, get) => ({
    list: [],
    loaded: false,
    loadError: null,
    running: {},
    query: '',
    searching: false,
    hits: null,
    searchError: null,

    async load() {
      try {
        const list = await client.request('sessions.list', { limit: 200 })
        set({ list, loaded: true, loadError: null })
      } catch (error) {
        set({ loaded: true, loadError: errorMessage(error) })
      }
    },

    setQuery(query) {
      set({ query })
      if (!query.trim()) get().clearSearch()
    },

    async search(query) {
      const seq = ++searchSeq
      if (!query.trim()) return get().clearSearch()
      set({ searching: true, searchError: null })
      try {
        const { hits } = await client.request('sessions.search', { query, limit: 10 })
        if (seq === searchSeq) set({ hits, searching: false })
      } catch (error) {
        if (seq === searchSeq) set({ hits: [], searching: false, searchError: errorMessage(error) })
      }
    },

    clearSearch() {
      searchSeq++
      set({ query: '', hits: null, searching: false, searchError: null })
    },

    setRunning(sessionId, running) {
      const next = { ...get().running }
      if (running) next[sessionId] = true
      else delete next[sessionId]
      set({ running: next })
    },

    async rename(sessionId, title) {
      const updated = await client.request('sessions.rename', { sessionId, title })
      set({ list: get().list.map((s) => (s.id === sessionId ? updated : s)) })
    },

    async remove(sessionId) {
      await client.request('sessions.delete', { sessionId })
      set({ list: get().list.filter((s) => s.id !== sessionId) })
    },

    async setFlags(sessionId, flags) {
      const updated = await client.request('sessions.setFlags', { sessionId, ...flags })
      set({ list: get().list.map((s) => (s.id === sessionId ? updated : s)) })
    },

    exportFile(sessionId, format) {
      return client.request('sessions.export', { sessionId, format })
    }
  }))
}

/** Splits a search snippet on its `>>>match<<<` marks, for highlighting as elements (never HTML). */
export function snippetParts(snippet: string): Array<{ text: string; match: boolean }> {
  const parts: Array<{ text: string; match: boolean }> = []
  const pattern = />>>([\s\S]*?)<<</g
  let last = 0
  for (let found = pattern.exec(snippet); found; found = pattern.exec(snippet)) {
    if (found.index > last) parts.push({ text: snippet.slice(last, found.index), match: false })
    if (found[1]) parts.push({ text: found[1], match: true })
    last = found.index + found[0].length
  }
  if (last < snippet.length) parts.push({ text: snippet.slice(last), match: false })
  return parts
}

export type DateBucket = 'today' | 'yesterday' | 'week' | 'older'

/** Sidebar sections by last activity. */
export function dateBucket(at: number, now: number): DateBucket {
  const startOfToday = new Date(now)
  startOfToday.setHours(0, 0, 0, 0)
  const today = startOfToday.getTime()
  if (at >= today) return 'today'
  if (at >= today - 86_400_000) return 'yesterday'
  if (at >= today - 7 * 86_400_000) return 'week'
  return 'older'
}

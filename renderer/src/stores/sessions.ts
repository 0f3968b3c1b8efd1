import { createStore, type StoreApi } from 'zustand/vanilla'
import type { SearchHit, SessionExportFile, SessionSummary } from '../../../shared/ipc/domain'
import { errorCode, type CairnClient } from '../ipc/client'
import { describeError } from '../ipc/error-words'
import { dropRow, mergeFirstPage, placeRow, SESSION_PAGE_SIZE, type LoadedPages } from './session-pages'

export interface SessionsState {
  /** Every conversation loaded so far: the list's pages, then the archived ones' (when shown). */
  list: SessionSummary[]
  /** The sidebar's conversations (not archived), pinned first, page by page as the user scrolls. */
  pages: LoadedPages
  archivedPages: LoadedPages
  /** Whether any conversation is archived (the "Show archived" toggle shows only then). */
  hasArchived: boolean
  archivedShown: boolean
  loadingMore: boolean
  loaded: boolean
  loadError: string | null
  /** Conversations with a turn in progress (from `chat.status`). */
  running: Record<string, boolean>
  query: string
  searching: boolean
  hits: SearchHit[] | null
  searchError: string | null
  /** Loads the first page again and merges it into what is loaded; `changed` conversations are looked up wherever they were. */
  load(changed?: string[]): Promise<void>
  /** The next page: (when shown) the archived ones' first, then the conversations'. */
  loadMore(): Promise<void>
  showArchived(shown: boolean): Promise<void>
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

const noPages: LoadedPages = { rows: [], nextCursor: null }

function pagesOf(page: { sessions: SessionSummary[]; nextCursor: string | null }): LoadedPages {
  return { rows: page.sessions, nextCursor: page.nextCursor }
}

/** The next page's rows after the loaded ones; a row met again (it moved meanwhile) keeps only its newer copy. */
function appendPage(loaded: LoadedPages, page: LoadedPages): LoadedPages {
  const fresh = new Set(page.rows.map((row) => row.id))
  return { rows: [...loaded.rows.filter((row) => !fresh.has(row.id)), ...page.rows], nextCursor: page.nextCursor }
}

export function createSessionsStore(client: CairnClient): SessionsStore {
  let searchSeq = 0
  const lists = (pages: LoadedPages, archivedPages: LoadedPages) => ({ pages, archivedPages, list: [...pages.rows, ...archivedPages.rows] })
  /** Where a changed conversation now belongs, from its own summary (gone when deleted). */
  const relocate = async (sessionId: string, pages: LoadedPages, archivedPages: LoadedPages, archivedShown: boolean) => {
    try {
      const { session } = await client.request('sessions.get', { sessionId, limit: 1 })
      if (session.archived) return { pages: dropRow(pages, sessionId), archivedPages: archivedShown ? placeRow(archivedPages, session) : archivedPages }
      return { pages: placeRow(pages, session), archivedPages: dropRow(archivedPages, sessionId) }
    } catch (error) {
      if (errorCode(error) === 'NOT_FOUND') return { pages: dropRow(pages, sessionId), archivedPages: dropRow(archivedPages, sessionId) }
      return { pages, archivedPages }
    }
  }
  return createStore<SessionsState>()((set, get) => ({
    list: [],
    pages: noPages,
    archivedPages: noPages,
    hasArchived: false,
    archivedShown: false,
    loadingMore: false,
    loaded: false,
    loadError: null,
    running: {},
    query: '',
    searching: false,
    hits: null,
    searchError: null,

    async load(changed = []) {
      try {
        const shown = get().archivedShown
        const [first, firstArchived] = await Promise.all([
          client.request('sessions.list', { limit: SESSION_PAGE_SIZE }),
          // Hidden, one row says whether to offer the toggle.
          client.request('sessions.list', { limit: shown ? SESSION_PAGE_SIZE : 1, archived: true })
        ])
        let pages = mergeFirstPage(get().pages, pagesOf(first))
        let archivedPages = get().archivedShown ? mergeFirstPage(get().archivedPages, pagesOf(firstArchived)) : noPages
        const inFirst = new Set([...first.sessions, ...firstArchived.sessions].map((s) => s.id))
        for (const sessionId of changed.filter((id) => !inFirst.has(id))) {
          ;({ pages, archivedPages } = await relocate(sessionId, pages, archivedPages, get().archivedShown))
        }
        set({ ...lists(pages, archivedPages), hasArchived: firstArchived.sessions.length > 0, loaded: true, loadError: null })
      } catch (error) {
        set({ loaded: true, loadError: describeError(error) })
      }
    },

    async loadMore() {
      const { pages, archivedPages, archivedShown, loadingMore } = get()
      // Shown, the archived ones come first (at the top of the sidebar, under their toggle).
      const archived = archivedShown && archivedPages.nextCursor !== null
      const cursor = archived ? archivedPages.nextCursor : pages.nextCursor
      if (loadingMore || cursor === null) return
      set({ loadingMore: true })
      try {
        const page = pagesOf(await client.request('sessions.list', { limit: SESSION_PAGE_SIZE, cursor, archived }))
        const now = get()
        set(archived ? lists(now.pages, appendPage(now.archivedPages, page)) : lists(appendPage(now.pages, page), now.archivedPages))
      } catch (error) {
        set({ loadError: describeError(error) })
      } finally {
        set({ loadingMore: false })
      }
    },

    async showArchived(shown) {
      if (!shown) return set({ archivedShown: false, ...lists(get().pages, noPages) })
      set({ archivedShown: true })
      try {
        const page = pagesOf(await client.request('sessions.list', { limit: SESSION_PAGE_SIZE, archived: true }))
        if (get().archivedShown) set(lists(get().pages, page))
      } catch (error) {
        set({ loadError: describeError(error) })
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
        if (seq === searchSeq) set({ hits: [], searching: false, searchError: describeError(error) })
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
      const swap = (pages: LoadedPages) => ({ ...pages, rows: pages.rows.map((s) => (s.id === sessionId ? updated : s)) })
      set(lists(swap(get().pages), swap(get().archivedPages)))
    },

    async remove(sessionId) {
      await client.request('sessions.delete', { sessionId })
      set(lists(dropRow(get().pages, sessionId), dropRow(get().archivedPages, sessionId)))
    },

    // Pinning moves the row to the top, archiving into the archived list: placed at once, the reload confirms.
    async setFlags(sessionId, flags) {
      const updated = await client.request('sessions.setFlags', { sessionId, ...flags })
      const { pages, archivedPages, archivedShown } = get()
      if (updated.archived) set({ ...lists(dropRow(pages, sessionId), archivedShown ? placeRow(archivedPages, updated) : archivedPages), hasArchived: true })
      else {
        const left = dropRow(archivedPages, sessionId)
        // The last archived one back in the list: nothing left behind the toggle.
        const none = archivedShown && !left.rows.length && left.nextCursor === null
        set({ ...lists(placeRow(pages, updated), left), ...(none ? { hasArchived: false, archivedShown: false } : {}) })
      }
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

import type { DisplayMessage, LearnedReview } from '../../../shared/ipc/domain'
import type { AgentEvent } from '../../../shared/agent-events'
import type { CairnClient } from '../ipc/client'
import { MAX_FATES_PER_REQUEST } from '../../../shared/review-fate'
import { buildItems, reconcileItems, type ChatItem } from './chat-items'

/**
 * The open conversation is loaded a page at a time: its last page first (or the page around a
 * search hit), older pages as the user scrolls up, newer ones back down. `items` are the rows of
 * the loaded pages (plus a live turn's rows), built from all loaded messages at once so a tool call
 * and its result, or a folded compacted run, join up across a page boundary.
 */
export interface PagingState {
  /** Older messages exist than the loaded ones. */
  hasOlder: boolean
  /** Newer messages exist than the loaded ones (a search hit deep in the conversation was opened). */
  hasNewer: boolean
  loadingOlder: boolean
  /** Prepends the previous page to `items` (`limit` messages, default PAGE_SIZE, at most MAX_PAGE_SIZE). */
  loadOlder(limit?: number): Promise<void>
  /** Appends the next page; the last one takes up a running turn. */
  loadNewer(): Promise<void>
  /**
   * Replaces the loaded pages with the conversation's first page (newer ones load back down), for a
   * jump to the start. False: nothing was asked (no older messages, a page in flight, a turn running).
   */
  loadOldest(): Promise<boolean>
}

/** Messages per page: a screenful many times over (`sessions.get`'s default page is as long). */
export const PAGE_SIZE = 100
/** The most a route gives at once: for someone racing to the top of a long conversation. */
export const MAX_PAGE_SIZE = 500
/** How long a burst of decisions and reverts is gathered before the notes ask what became of their changes. */
const FATES_DELAY_MS = 120

interface PagedView extends PagingState {
  sessionId: string | null
  items: ChatItem[]
  running: boolean
  learnedNotes: LearnedReview[]
}

interface PagerContext {
  client: CairnClient
  get(): PagedView
  set(partial: Partial<PagedView>): void
  /** Takes up the running turn (its events so far, then live). */
  attach(sessionId: string): Promise<void>
  /** False: the newest page only (`loadOlder` asks for nothing; `hasOlder` still says more exists). */
  olderPages: boolean
}

type Flags = Pick<PagingState, 'hasOlder' | 'hasNewer'>

export function createPager({ client, get, set, attach, olderPages }: PagerContext) {
  let loaded: DisplayMessage[] = []
  let notes: LearnedReview[] = []
  // A turn runs past the loaded window: it is taken up once the newest page is shown.
  let detached = false
  // Messages already loaded changed under us (compression marked them, a version was swapped in).
  let stale = false
  let loadingNewer = false

  const show = (messages: DisplayMessage[], flags: Flags, live: ChatItem[] = []): void => {
    loaded = messages
    set({ ...flags, items: reconcileItems(get().items, [...buildItems(messages), ...live]), learnedNotes: visibleNotes(notes, messages, flags) })
  }

  const flags = (): Flags => ({ hasOlder: get().hasOlder, hasNewer: get().hasNewer })

  const takeUpTurn = async (sessionId: string): Promise<void> => {
    if (!detached) return
    detached = false
    await attach(sessionId)
  }

  const newestPage = (sessionId: string) => client.request('sessions.get', { sessionId })

  let fatesTimer: ReturnType<typeof setTimeout> | null = null
  const readFates = async (): Promise<void> => {
    const sessionId = get().sessionId
    const followed = notes.filter((note) => note.summary.saved || note.summary.proposed).slice(-MAX_FATES_PER_REQUEST)
    if (!sessionId || !followed.length) return
    try {
      const { fates } = await client.request('learning.fates', { reviewIds: followed.map((note) => note.reviewId) })
      if (get().sessionId !== sessionId) return
      const byReview = new Map(fates.map((fate) => [fate.reviewId, fate]))
      notes = notes.map((note) => (byReview.has(note.reviewId) ? { ...note, fate: byReview.get(note.reviewId) } : note))
      set({ learnedNotes: visibleNotes(notes, loaded, flags()) })
    } catch {
      // The notes keep what they said; the next decision or reload asks again.
    }
  }

  return {
    paging: {
      hasOlder: false,
      hasNewer: false,
      loadingOlder: false,

      async loadOlder(limit = PAGE_SIZE) {
        const { sessionId, hasOlder, loadingOlder } = get()
        const firstId = loaded[0]?.id
        if (!olderPages || !sessionId || !hasOlder || loadingOlder || firstId === undefined) return
        set({ loadingOlder: true })
        try {
          const page = await client.request('sessions.messages', { sessionId, before: firstId, limit: Math.min(limit, MAX_PAGE_SIZE) })
          // Another conversation, or the loaded pages were replaced meanwhile: this page no longer joins up.
          if (get().sessionId !== sessionId || loaded[0]?.id !== firstId) return
          show([...page.messages, ...loaded], { hasOlder: page.hasOlder, hasNewer: get().hasNewer }, liveRows(get().items, loaded))
        } catch {
          // Keep what is shown; scrolling up again tries again.
        } finally {
          if (get().sessionId === sessionId) set({ loadingOlder: false })
        }
      },

      async loadOldest() {
        const { sessionId, hasOlder, loadingOlder, running } = get()
        // A running turn's rows come with the newest page: it is not left behind for the first one.
        if (!olderPages || !sessionId || !hasOlder || loadingOlder || running) return false
        set({ loadingOlder: true })
        try {
          const page = await client.request('sessions.messages', { sessionId, after: 0, limit: PAGE_SIZE })
          if (get().sessionId === sessionId) show(page.messages, { hasOlder: false, hasNewer: page.hasNewer })
        } catch {
          // Keep what is shown; the key again tries again.
        } finally {
          if (get().sessionId === sessionId) set({ loadingOlder: false })
        }
        return true
      },

      async loadNewer() {
        const { sessionId, hasNewer } = get()
        const lastId = loaded[loaded.length - 1]?.id
        if (!sessionId || !hasNewer || loadingNewer || lastId === undefined) return
        loadingNewer = true
        try {
          const page = await client.request('sessions.messages', { sessionId, after: lastId, limit: PAGE_SIZE })
          if (get().sessionId !== sessionId || loaded[loaded.length - 1]?.id !== lastId) return
          show([...loaded, ...page.messages], { hasOlder: get().hasOlder, hasNewer: page.hasNewer })
          if (!page.hasNewer) await takeUpTurn(sessionId)
        } catch {
          // Keep what is shown; scrolling down again tries again.
        } finally {
          loadingNewer = false
        }
      }
    } satisfies PagingState,

    reset(): void {
      loaded = []
      notes = []
      detached = false
      stale = false
      loadingNewer = false
    },

    /** The last page, or the page around `focusMessageId` when it is older than that. Null: another conversation was opened meanwhile. */
    async open(sessionId: string, focusMessageId: number | undefined) {
      const first = await newestPage(sessionId)
      if (get().sessionId !== sessionId) return null
      let window = { messages: first.messages, hasOlder: first.page.hasOlder, hasNewer: false }
      if (focusMessageId !== undefined && first.page.hasOlder && !first.messages.some((m) => m.id === focusMessageId)) {
        try {
          window = await client.request('sessions.messages', { sessionId, around: focusMessageId, limit: PAGE_SIZE })
          if (get().sessionId !== sessionId) return null
        } catch {
          // Not on the shown path (another version shows now): the conversation opens at its end.
        }
      }
      notes = first.learned ?? []
      show(window.messages, { hasOlder: window.hasOlder, hasNewer: window.hasNewer })
      detached = first.running && window.hasNewer
      return { session: first.session, running: first.running, attachNow: first.running && !window.hasNewer }
    },

    /**
     * After another version was swapped in: only what follows the fork changed, so the loaded
     * messages before it stay and the new version's page is loaded after them; the view stays where
     * the switch was, however deep. False (the fork is not among the loaded rows, or the page could
     * not be read): nothing changed, the caller reloads from the end.
     */
    async showFromFork(sessionId: string, branchId: number): Promise<boolean> {
      const anchor = stale ? null : forkAnchor(get().items, loaded, branchId)
      if (anchor === null) return false
      try {
        const page = await client.request('sessions.messages', { sessionId, after: anchor, limit: PAGE_SIZE })
        if (get().sessionId === sessionId) show([...loaded.filter((m) => m.id <= anchor), ...page.messages], { hasOlder: get().hasOlder, hasNewer: page.hasNewer })
        return true
      } catch {
        return false
      }
    },

    /** Before sending or answering again away from the end: the newest page, and the running turn if any. False: another conversation was opened meanwhile. */
    async jumpToNewest(sessionId: string): Promise<boolean> {
      if (!get().hasNewer) return true
      const first = await newestPage(sessionId)
      if (get().sessionId !== sessionId) return false
      show(first.messages, { hasOlder: first.page.hasOlder, hasNewer: false })
      await takeUpTurn(sessionId)
      return true
    },

    /**
     * The newest page, as `refresh` fetched it, joined to the older pages still loaded (kept unless
     * they may have changed: then only the newest page stays). Live rows are replaced by stored ones.
     */
    takeNewest(messages: DisplayMessage[], hasOlder: boolean, keepOlder = true): void {
      const keep = keepOlder && !stale && hasOlder && messages.length > 0
      stale = false
      const kept = keep ? loaded.filter((m) => m.id < messages[0].id) : []
      show([...kept, ...messages], { hasOlder: kept.length ? get().hasOlder : hasOlder, hasNewer: false })
    },

    /** Events of a turn while the user reads older pages: only whether it runs is shown; its rows come with the newest page. */
    offscreen(event: AgentEvent): boolean {
      if (!get().hasNewer) return false
      if (event.type === 'turn_started') {
        detached = true
        set({ running: true })
      } else if (event.type === 'turn_finished') {
        detached = false
        set({ running: false })
      }
      return true
    },

    /** A running turn while away from the end (refresh found it): taken up once the newest page is shown. */
    runningOffscreen(running: boolean): void {
      detached = running
      set({ running })
    },

    /** Compression marked loaded messages as condensed: the next refresh reloads from the newest page. */
    markStale(): void {
      stale = true
    },

    /** Forgets loaded messages after `messageId` (answered again or edited: they become another version). */
    keepThrough(messageId: number): void {
      loaded = loaded.filter((m) => m.id <= messageId)
      set({ hasNewer: false })
    },

    /** What the reviews of this conversation learned: the stored list, plus ones announced live and not stored yet. */
    setNotes(stored: LearnedReview[]): void {
      notes = [...stored, ...notes.filter((note) => !stored.some((s) => s.reviewId === note.reviewId))]
      set({ learnedNotes: visibleNotes(notes, loaded, flags()) })
    },

    addNote(note: LearnedReview): void {
      if (notes.some((n) => n.reviewId === note.reviewId)) return
      notes = [...notes, note]
      set({ learnedNotes: visibleNotes(notes, loaded, flags()) })
    },

    /**
     * A proposal was decided or a change reverted somewhere: asks once (a burst of events is one
     * request, and none while no note has changes) what became of each note's changes now.
     */
    refreshFates(): void {
      if (fatesTimer) clearTimeout(fatesTimer)
      fatesTimer = setTimeout(() => {
        fatesTimer = null
        void readFates()
      }, FATES_DELAY_MS)
    }
  }
}

export type Pager = ReturnType<typeof createPager>

/**
 * The last loaded message both versions share, before the row that switches to `branchId`: for an
 * answer made again its question, for an edited message the one before it. Null: not loaded.
 */
function forkAnchor(items: ChatItem[], messages: DisplayMessage[], branchId: number): number | null {
  const at = items.findIndex((item) => (item.kind === 'user' || item.kind === 'assistant') && (item.versions?.previous === branchId || item.versions?.next === branchId))
  const switched = items[at]
  if (!switched) return null
  if (switched.kind === 'user') return switched.id === null ? null : (messages.filter((m) => m.id < switched.id!).at(-1)?.id ?? null)
  const question = items.slice(0, at).findLast((item) => item.kind === 'user')
  return question?.kind === 'user' ? question.id : null
}

/** Rows not built from loaded messages: a turn's live rows and a message waiting to be stored. */
function liveRows(items: ChatItem[], messages: DisplayMessage[]): ChatItem[] {
  const stored = new Set(buildItems(messages).map((item) => item.key))
  return items.filter((item) => !stored.has(item.key))
}

/**
 * Notes placed among the loaded rows only: one from before the first loaded message (older pages
 * not loaded) or after the last (newer ones not loaded) would land at the wrong edge, so it waits
 * until its neighbours are loaded.
 */
export function visibleNotes(notes: LearnedReview[], messages: DisplayMessage[], { hasOlder, hasNewer }: Flags): LearnedReview[] {
  if (!messages.length) return hasOlder || hasNewer ? [] : notes
  const from = hasOlder ? messages[0].createdAt : -Infinity
  const to = hasNewer ? messages[messages.length - 1].createdAt : Infinity
  return notes.filter((note) => note.at >= from && note.at <= to)
}

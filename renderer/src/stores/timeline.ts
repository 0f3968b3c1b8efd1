import { createStore, type StoreApi } from 'zustand/vanilla'
import type { LearnedChange } from '../../../shared/ipc/contract'
import type { ReviewRun } from '../../../shared/ipc/domain'
import type { FixedLedgerSource, LedgerEntry, LedgerKind, RevertConflict, RevertErrorCode, RevertResult } from '../../../shared/ledger'
import { type CairnClient } from '../ipc/client'
import { describeError } from '../ipc/error-words'

/** What a change touched: memory (both files) or skills. */
export type KindFilter = 'memory' | 'skill'
/** What a change did, across memory and skills. */
export type ChangeFilter = 'added' | 'changed' | 'removed'

export interface TimelineFilters {
  kinds: KindFilter[]
  changes: ChangeFilter[]
  sources: FixedLedgerSource[]
}

/**
 * Rows that share a review id without a review behind them: an import's batch (`import:<id>`) or a
 * sync (`sync:<ms>`, with the devices its changes came from, as the rows' `meta.device` name them).
 */
export type TimelineBatch = { kind: 'import'; id: string } | { kind: 'sync'; at: number; devices: string[] }

export type TimelineGroup =
  | { type: 'review'; key: string; reviewId: string; review: ReviewRun | null; batch: TimelineBatch | null; entries: LedgerEntry[] }
  | { type: 'entry'; key: string; entry: LedgerEntry }

/** A refused revert: its code when main gave one, else its key and figures (the UI words either), main's English, and both texts on a conflict. */
export type RevertOutcome =
  | { ok: true }
  | { ok: false; code: RevertErrorCode | null; key?: string; params?: Record<string, string | number>; error: string; conflict: RevertConflict | null }

export interface TimelineState {
  entries: LedgerEntry[]
  reviews: Record<string, ReviewRun>
  filters: TimelineFilters
  loaded: boolean
  loading: boolean
  loadError: string | null
  hasMore: boolean
  load(): Promise<void>
  loadMore(): Promise<void>
  toggleKind(kind: KindFilter): void
  toggleChange(change: ChangeFilter): void
  toggleSource(source: FixedLedgerSource): void
  clearFilters(): void
  /** `force`: revert a skill change over the newer text the conflict showed (the user confirmed). */
  revert(id: number, options?: { force?: boolean }): Promise<RevertOutcome>
  /**
   * A learned change from the stream: its row is added (or replaced) where the filters show it, a
   * revert marks the row it undid, and its review run is kept. A change that does not say its review
   * (or that arrives while a page is loading) is reloaded instead.
   */
  applyChange(change: LearnedChange): void
  /** A review ended: its run as stored replaces the one shown (its summary, figures and time). */
  reviewEnded(run: ReviewRun): void
  /** Something changed in main: reload soon (coalesces bursts, e.g. a review writing several rows). */
  invalidate(): void
}

export type TimelineStore = StoreApi<TimelineState>

const PAGE = 100
/** More rows than this streamed within 120 ms (an import, an undo, a sync) reload the page once instead of being placed one by one. */
const BURST_ROWS = 20

/** Every ledger kind of each family; typed so a new kind in `shared/ledger.ts` must be placed here. */
const kindFamily: Record<LedgerKind, KindFilter> = {
  'memory.add': 'memory',
  'memory.replace': 'memory',
  'memory.remove': 'memory',
  'skill.create': 'skill',
  'skill.patch': 'skill',
  'skill.edit': 'skill',
  'skill.delete': 'skill',
  'skill.file_write': 'skill',
  'skill.file_remove': 'skill',
  'archive.add': 'memory',
  'archive.remove': 'memory'
}

/** What each kind did; a file write counts as a change (it may add a file or rewrite one). */
const kindChange: Record<LedgerKind, ChangeFilter> = {
  'memory.add': 'added',
  'memory.replace': 'changed',
  'memory.remove': 'removed',
  'skill.create': 'added',
  'skill.patch': 'changed',
  'skill.edit': 'changed',
  'skill.delete': 'removed',
  'skill.file_write': 'changed',
  'skill.file_remove': 'removed',
  'archive.add': 'added',
  'archive.remove': 'removed'
}

export const allSources: FixedLedgerSource[] = ['agent', 'review', 'user', 'import', 'sync', 'revert']
export const allChanges: ChangeFilter[] = ['added', 'changed', 'removed']
export const noFilters: TimelineFilters = { kinds: [], changes: [], sources: [] }

/** The ledger kinds both filter groups allow (an empty group allows all of its values). */
export function kindsOf(families: KindFilter[], changes: ChangeFilter[] = []): LedgerKind[] {
  return (Object.keys(kindFamily) as LedgerKind[]).filter(
    (kind) => (!families.length || families.includes(kindFamily[kind])) && (!changes.length || changes.includes(kindChange[kind]))
  )
}

export function isFiltered(filters: TimelineFilters): boolean {
  return filters.kinds.length > 0 || filters.changes.length > 0 || filters.sources.length > 0
}

export function familyOf(kind: LedgerKind): KindFilter {
  return kindFamily[kind]
}

export function matchesFilters(entry: LedgerEntry, filters: TimelineFilters): boolean {
  if (filters.kinds.length && !filters.kinds.includes(kindFamily[entry.kind])) return false
  if (filters.changes.length && !filters.changes.includes(kindChange[entry.kind])) return false
  if (filters.sources.length && !(filters.sources as readonly string[]).includes(entry.source)) return false
  return true
}

/**
 * Newest first; rows a review wrote sit together under that review, placed where its newest row is.
 * Rows without a review stand alone.
 */
export function groupTimeline(entries: LedgerEntry[], reviews: Record<string, ReviewRun>): TimelineGroup[] {
  const sorted = [...entries].sort((a, b) => b.id - a.id)
  const groups: TimelineGroup[] = []
  const byReview = new Map<string, Extract<TimelineGroup, { type: 'review' }>>()
  for (const entry of sorted) {
    if (!entry.reviewId) {
      groups.push({ type: 'entry', key: `e:${entry.id}`, entry })
      continue
    }
    const existing = byReview.get(entry.reviewId)
    if (existing) {
      existing.entries.push(entry)
      continue
    }
    const group = { type: 'review' as const, key: `r:${entry.reviewId}`, reviewId: entry.reviewId, review: reviews[entry.reviewId] ?? null, batch: null, entries: [entry] }
    byReview.set(entry.reviewId, group)
    groups.push(group)
  }
  for (const group of byReview.values()) group.batch = batchOf(group.reviewId, group.entries)
  return groups
}

const IMPORT_BATCH = /^import:(\d+)$/
const SYNC_BATCH = /^sync:(\d+)$/

/** Which import or sync wrote rows under `reviewId`; null for a review's rows. */
export function batchOf(reviewId: string, entries: readonly LedgerEntry[]): TimelineBatch | null {
  const imported = IMPORT_BATCH.exec(reviewId)
  if (imported) return { kind: 'import', id: imported[1] }
  const synced = SYNC_BATCH.exec(reviewId)
  if (!synced) return null
  const devices = new Set<string>()
  for (const entry of entries) for (const name of entry.meta.device?.split(', ') ?? []) if (name) devices.add(name)
  return { kind: 'sync', at: Number(synced[1]), devices: [...devices] }
}

export function createTimelineStore(client: CairnClient): TimelineStore {
  let seq = 0
  let reloadTimer: ReturnType<typeof setTimeout> | null = null
  // Rows streamed within one burst window; past BURST_ROWS the timeline reloads once instead.
  let burstRows = 0
  let burstTimer: ReturnType<typeof setTimeout> | null = null
  const countBurst = (): number => {
    burstRows += 1
    burstTimer ??= setTimeout(() => {
      burstTimer = null
      burstRows = 0
    }, 120)
    return burstRows
  }

  const query = (filters: TimelineFilters, beforeId?: number) => ({
    limit: PAGE,
    ...(beforeId !== undefined ? { beforeId } : {}),
    ...(filters.kinds.length || filters.changes.length ? { kinds: kindsOf(filters.kinds, filters.changes) } : {}),
    ...(filters.sources.length ? { sources: filters.sources } : {})
  })

  return createStore<TimelineState>()((set, get) => ({
    entries: [],
    reviews: {},
    filters: noFilters,
    loaded: false,
    loading: false,
    loadError: null,
    hasMore: false,

    async load() {
      const mine = ++seq
      set({ loading: true })
      try {
        const { entries, reviews } = await client.request('timeline.list', query(get().filters))
        if (mine !== seq) return
        set({ entries, reviews: indexReviews(reviews), loaded: true, loading: false, loadError: null, hasMore: entries.length === PAGE })
      } catch (error) {
        if (mine === seq) set({ loaded: true, loading: false, loadError: describeError(error) })
      }
    },

    async loadMore() {
      const { entries, loading, hasMore } = get()
      if (loading || !hasMore || !entries.length) return
      const mine = ++seq
      set({ loading: true })
      try {
        const oldest = Math.min(...entries.map((e) => e.id))
        const page = await client.request('timeline.list', query(get().filters, oldest))
        if (mine !== seq) return
        set({
          entries: [...get().entries, ...page.entries],
          reviews: { ...get().reviews, ...indexReviews(page.reviews) },
          loading: false,
          hasMore: page.entries.length === PAGE
        })
      } catch (error) {
        if (mine === seq) set({ loading: false, loadError: describeError(error) })
      }
    },

    toggleKind(kind) {
      const kinds = toggle(get().filters.kinds, kind)
      set({ filters: { ...get().filters, kinds } })
      void get().load()
    },

    toggleChange(change) {
      const changes = toggle(get().filters.changes, change)
      set({ filters: { ...get().filters, changes } })
      void get().load()
    },

    toggleSource(source) {
      const sources = toggle(get().filters.sources, source)
      set({ filters: { ...get().filters, sources } })
      void get().load()
    },

    clearFilters() {
      set({ filters: noFilters })
      void get().load()
    },

    async revert(id, options) {
      try {
        const result: RevertResult = await client.request('timeline.revert', { id, ...(options?.force ? { force: true } : {}) })
        if (!result.ok) return { ok: false, code: result.code ?? null, key: result.key, params: result.params, error: result.error, conflict: result.conflict ?? null }
        await get().load()
        return { ok: true }
      } catch (error) {
        return { ok: false, code: null, error: describeError(error), conflict: null }
      }
    },

    applyChange(change) {
      if (!get().loaded) return
      // Without its review, while a page is on its way (it may have been read before this row), or in a
      // burst (an import, an undo, a sync: one reload beats a re-sort per row), reload instead.
      if (change.review === undefined || get().loading || reloadTimer || countBurst() > BURST_ROWS) return get().invalidate()
      const { entry, review } = change
      const { entries, reviews, filters, hasMore } = get()
      const revertOf = entry.meta.revertOf
      const kept = entries.filter((row) => row.id !== entry.id).map((row) => (row.id === revertOf ? { ...row, revertedBy: entry.id } : row))
      // A row committed late, older than the last row shown while more pages wait, belongs to a page not
      // loaded yet: inserting it would make the next page start below the rows between.
      const oldest = entries.length ? entries[entries.length - 1].id : 0
      const belongsHere = matchesFilters(entry, filters) && !(hasMore && entry.id < oldest)
      set({
        entries: belongsHere ? [entry, ...kept].sort((a, b) => b.id - a.id) : kept,
        reviews: review ? { ...reviews, [review.id]: review } : reviews
      })
    },

    reviewEnded(run) {
      if (get().reviews[run.id]) set({ reviews: { ...get().reviews, [run.id]: run } })
    },

    invalidate() {
      if (!get().loaded) return
      if (reloadTimer) clearTimeout(reloadTimer)
      reloadTimer = setTimeout(() => {
        reloadTimer = null
        void get().load()
      }, 120)
    }
  }))
}

function indexReviews(reviews: ReviewRun[]): Record<string, ReviewRun> {
  return Object.fromEntries(reviews.map((r) => [r.id, r]))
}

function toggle<T>(list: T[], value: T): T[] {
  return list.includes(value) ? list.filter((v) => v !== value) : [...list, value]
}

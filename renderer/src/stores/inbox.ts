import { createStore, type StoreApi } from 'zustand/vanilla'
import type { RouteOutput } from '../../../shared/ipc/contract'
import type { ProposalErrorCode } from '../../../shared/proposals'
import { emptyFate, type ReviewFate } from '../../../shared/review-fate'
import { type CairnClient } from '../ipc/client'
import { describeError } from '../ipc/error-words'

/** A proposal as main sends it (the contract's output type). */
export type ProposalItem = RouteOutput<'inbox.get'>

/**
 * Why a decision did not go through: main's code (the UI words it), `request` when the request
 * itself failed (the connection, a bad input), or `busy` when one is already on its way; `error` is
 * main's English, shown under the wording (empty for `busy`, which the renderer words itself).
 */
export interface DecisionFailure {
  code: ProposalErrorCode | 'request' | 'busy'
  error: string
}

export type DecisionOutcome = { ok: true } | ({ ok: false } & DecisionFailure)

/** One review's proposals (or a curation pass's), shown under one header with "Approve all". */
export interface ProposalGroup {
  key: string
  reviewId: string | null
  origin: ProposalItem['origin']
  sessionId: string | null
  proposals: ProposalItem[]
}

export interface InboxState {
  /** Pending proposals loaded so far, newest first (a page at a time). */
  proposals: ProposalItem[]
  /** How many proposals wait in all, loaded or not. */
  pending: number
  /** Older pending proposals are left to load. */
  hasMore: boolean
  loaded: boolean
  loading: boolean
  loadingMore: boolean
  loadError: string | null
  loadMoreError: string | null
  /** The proposal the keyboard acts on. */
  focusedId: number | null
  /** Proposals with a decision on its way. */
  busy: Record<number, true>
  /** The last decision that failed, per proposal, shown on its card. */
  failures: Record<number, DecisionFailure>
  /** A review whose "Approve all" is on its way. */
  approvingAll: string | null
  /**
   * The review whose proposals the user came for (a chat note's link): the screen shows them first, or
   * says what became of them (`fate`, null until known) once none waits.
   */
  arrival: { reviewId: string; fate: ReviewFate | null } | null
  /** The newest page (or as many as are already loaded, so a reload keeps what the user paged to). */
  load(): Promise<void>
  /** The next page of older proposals. */
  loadMore(): Promise<void>
  focus(id: number | null): void
  approve(id: number, editedAfter?: string): Promise<DecisionOutcome>
  reject(id: number): Promise<DecisionOutcome>
  /** A stale proposal set aside and its conversation (or the library) reviewed again. */
  rereview(id: number): Promise<DecisionOutcome>
  /** Approves what one review proposed (stale ones stay); answers how many went through and the failures. */
  approveAll(reviewId: string): Promise<{ approved: number; failed: number }>
  dismissFailure(id: number): void
  /** Proposals were added or decided elsewhere (`inbox.changed`): reload if the list is on screen. */
  invalidate(): void
  /** The user follows a link to one review's proposals; asks what became of them, for when none waits. */
  arriveFor(reviewId: string): void
  /** The screen was left: the next visit shows the Inbox as it is. */
  leave(): void
}

export type InboxStore = StoreApi<InboxState>

/**
 * Proposals of one review together, in the order the review made them; groups newest first.
 * Proposals without a review stand alone.
 */
export function groupProposals(proposals: ProposalItem[]): ProposalGroup[] {
  const groups: ProposalGroup[] = []
  const byReview = new Map<string, ProposalGroup>()
  for (const proposal of [...proposals].sort((a, b) => b.createdAt - a.createdAt || b.id - a.id)) {
    const existing = proposal.reviewId ? byReview.get(proposal.reviewId) : undefined
    if (existing) {
      existing.proposals.push(proposal)
      continue
    }
    const group: ProposalGroup = {
      key: proposal.reviewId ? `r:${proposal.reviewId}` : `p:${proposal.id}`,
      reviewId: proposal.reviewId,
      origin: proposal.origin,
      sessionId: proposal.sessionId,
      proposals: [proposal]
    }
    if (proposal.reviewId) byReview.set(proposal.reviewId, group)
    groups.push(group)
  }
  for (const group of groups) group.proposals.sort((a, b) => a.createdAt - b.createdAt || a.id - b.id)
  return groups
}

/** The proposals in the order the screen shows them (group by group), for moving with j/k. */
export function screenOrder(proposals: ProposalItem[]): ProposalItem[] {
  return groupProposals(proposals).flatMap((group) => group.proposals)
}

/** Proposals per `inbox.list` request: the route's default, and its most. */
export const INBOX_PAGE = 200
const MOST_PER_REQUEST = 500

export function createInboxStore(client: CairnClient): InboxStore {
  let seq = 0
  let reloadTimer: ReturnType<typeof setTimeout> | null = null

  return createStore<InboxState>()((set, get) => {
    /** Up to `want` pending proposals older than `beforeId` (newest first), at most 500 a request; `exhausted` when none older are left. */
    const pages = async (want: number, beforeId?: number): Promise<{ proposals: ProposalItem[]; pending: number; exhausted: boolean }> => {
      const proposals: ProposalItem[] = []
      let pending = 0
      let cursor = beforeId
      while (proposals.length < want) {
        const limit = Math.min(MOST_PER_REQUEST, want - proposals.length)
        const page = await client.request('inbox.list', { states: ['pending'], limit, ...(cursor !== undefined ? { beforeId: cursor } : {}) })
        pending = page.pending
        proposals.push(...page.proposals)
        if (page.proposals.length < limit) return { proposals, pending, exhausted: true }
        cursor = Math.min(...page.proposals.map((p) => p.id))
      }
      return { proposals, pending, exhausted: false }
    }

    const without = (id: number): Partial<InboxState> => {
      const order = screenOrder(get().proposals)
      const at = order.findIndex((p) => p.id === id)
      const rest = order.filter((p) => p.id !== id)
      // The keyboard stays where it was: on the next proposal, or the previous one at the end.
      const focusedId = get().focusedId === id ? (rest[Math.min(at, rest.length - 1)]?.id ?? null) : get().focusedId
      const { [id]: _failure, ...failures } = get().failures
      return { proposals: get().proposals.filter((p) => p.id !== id), pending: Math.max(0, get().pending - 1), focusedId, failures }
    }

    const setBusy = (id: number, on: boolean): void => {
      const { [id]: _was, ...busy } = get().busy
      set({ busy: on ? { ...busy, [id]: true } : busy })
    }

    const decide = async (id: number, request: () => Promise<RouteOutput<'inbox.approve'>>): Promise<DecisionOutcome> => {
      if (get().busy[id]) return { ok: false, code: 'busy', error: '' }
      setBusy(id, true)
      let outcome: DecisionOutcome
      try {
        const result = await request()
        outcome = result.ok ? { ok: true } : { ok: false, code: result.code, error: result.error }
      } catch (error) {
        outcome = { ok: false, code: 'request', error: describeError(error) }
      }
      setBusy(id, false)
      if (outcome.ok) set(without(id))
      else {
        const failure: DecisionFailure = { code: outcome.code, error: outcome.error }
        set({
          failures: { ...get().failures, [id]: failure },
          // Changed since it was proposed: show it as stale at once (the list reload confirms it).
          proposals: outcome.code === 'stale' ? get().proposals.map((p) => (p.id === id ? { ...p, stale: true } : p)) : get().proposals
        })
        if (outcome.code === 'decided' || outcome.code === 'not_found') get().invalidate()
      }
      return outcome
    }

    return {
      proposals: [],
      pending: 0,
      hasMore: false,
      loaded: false,
      loading: false,
      loadingMore: false,
      loadError: null,
      loadMoreError: null,
      focusedId: null,
      busy: {},
      failures: {},
      approvingAll: null,
      arrival: null,

      async load() {
        const mine = ++seq
        set({ loading: true })
        try {
          const { proposals, pending, exhausted } = await pages(Math.max(INBOX_PAGE, get().proposals.length))
          if (mine !== seq) return
          const hasMore = !exhausted && proposals.length < pending
          const focusedId = proposals.some((p) => p.id === get().focusedId) ? get().focusedId : (screenOrder(proposals)[0]?.id ?? null)
          // A failure stays on a card still listed (a stale one); decided ones leave with their card.
          const failures = Object.fromEntries(Object.entries(get().failures).filter(([id]) => proposals.some((p) => p.id === Number(id))))
          set({ proposals, pending, hasMore, loaded: true, loading: false, loadingMore: false, loadError: null, loadMoreError: null, focusedId, failures })
        } catch (error) {
          if (mine === seq) set({ loaded: true, loading: false, loadError: describeError(error) })
        }
      },

      async loadMore() {
        const { proposals, hasMore, loading, loadingMore } = get()
        if (!hasMore || loading || loadingMore || !proposals.length) return
        const mine = seq
        set({ loadingMore: true, loadMoreError: null })
        try {
          const page = await pages(INBOX_PAGE, Math.min(...proposals.map((p) => p.id)))
          // A reload started meanwhile answers for the whole list.
          if (mine !== seq) return
          const known = new Set(get().proposals.map((p) => p.id))
          const all = [...get().proposals, ...page.proposals.filter((p) => !known.has(p.id))]
          set({ proposals: all, pending: page.pending, hasMore: !page.exhausted && all.length < page.pending, loadingMore: false })
        } catch (error) {
          if (mine === seq) set({ loadingMore: false, loadMoreError: describeError(error) })
        }
      },

      focus: (focusedId) => set({ focusedId }),

      approve: (id, editedAfter) => decide(id, () => client.request('inbox.approve', { id, ...(editedAfter !== undefined ? { editedAfter } : {}) })),

      reject: (id) => decide(id, () => client.request('inbox.reject', { id })),

      rereview: (id) => decide(id, async () => (await client.request('inbox.rereview', { id })).result),

      async approveAll(reviewId) {
        set({ approvingAll: reviewId })
        try {
          const { results } = await client.request('inbox.approveAll', { reviewId })
          let approved = 0
          for (const result of results) {
            if (!result.ok) continue
            approved++
            set(without(result.proposal.id))
          }
          set({ approvingAll: null })
          // A failure carries no id; the reload shows which are still pending, stale ones marked.
          void get().load()
          return { approved, failed: results.length - approved }
        } catch (error) {
          set({ approvingAll: null })
          throw new Error(describeError(error))
        }
      },

      dismissFailure(id) {
        const { [id]: _gone, ...failures } = get().failures
        set({ failures })
      },

      arriveFor(reviewId) {
        set({ arrival: { reviewId, fate: null } })
        client
          .request('learning.fates', { reviewIds: [reviewId] })
          .then(({ fates }) => {
            if (get().arrival?.reviewId === reviewId) set({ arrival: { reviewId, fate: fates[0] ?? null } })
          })
          .catch(() => {
            // Unknown: the screen still says they no longer wait, without what became of them.
            if (get().arrival?.reviewId === reviewId) set({ arrival: { reviewId, fate: emptyFate(reviewId) } })
          })
      },

      leave: () => set({ arrival: null }),

      invalidate() {
        if (!get().loaded) return
        if (reloadTimer) clearTimeout(reloadTimer)
        reloadTimer = setTimeout(() => {
          reloadTimer = null
          void get().load()
        }, 80)
      }
    }
  })
}

import { createStore, type StoreApi } from 'zustand/vanilla'
import type { RouteOutput } from '../../../shared/ipc/contract'
import type { ProposalErrorCode } from '../../../shared/proposals'
import { errorMessage, type CairnClient } from '../ipc/client'

/** A proposal as main sends it (the contract's output type). */
export type ProposalItem = RouteOutput<'inbox.get'>

/**
 * Why a decision did not go through: main's code (the UI words it), or `request` when the request
 * itself failed (the connection, a bad input); `error` is main's English, shown under the wording.
 */
export interface DecisionFailure {
  code: ProposalErrorCode | 'request'
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
  /** Pending proposals, newest first. */
  proposals: ProposalItem[]
  loaded: boolean
  loading: boolean
  loadError: string | null
  /** The proposal the keyboard acts on. */
  focusedId: number | null
  /** Proposals with a decision on its way. */
  busy: Record<number, true>
  /** The last decision that failed, per proposal, shown on its card. */
  failures: Record<number, DecisionFailure>
  /** A review whose "Approve all" is on its way. */
  approvingAll: string | null
  load(): Promise<void>
  focus(id: number | null): void
  approve(id: number, editedAfter?: string): Promise<DecisionOutcome>
  reject(id: number): Promise<DecisionOutcome>
  /** Approves what one review proposed (stale ones stay); answers how many went through and the failures. */
  approveAll(reviewId: string): Promise<{ approved: number; failed: number }>
  dismissFailure(id: number): void
  /** Proposals were added or decided elsewhere (`inbox.changed`): reload if the list is on screen. */
  invalidate(): void
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

export function createInboxStore(client: CairnClient): InboxStore {
  let seq = 0
  let reloadTimer: ReturnType<typeof setTimeout> | null = null

  return createStore<InboxState>()((set, get) => {
    const without = (id: number): Partial<InboxState> => {
      const order = screenOrder(get().proposals)
      const at = order.findIndex((p) => p.id === id)
      const rest = order.filter((p) => p.id !== id)
      // The keyboard stays where it was: on the next proposal, or the previous one at the end.
      const focusedId = get().focusedId === id ? (rest[Math.min(at, rest.length - 1)]?.id ?? null) : get().focusedId
      const { [id]: _failure, ...failures } = get().failures
      return { proposals: get().proposals.filter((p) => p.id !== id), focusedId, failures }
    }

    const setBusy = (id: number, on: boolean): void => {
      const { [id]: _was, ...busy } = get().busy
      set({ busy: on ? { ...busy, [id]: true } : busy })
    }

    const decide = async (id: number, request: () => Promise<RouteOutput<'inbox.approve'>>): Promise<DecisionOutcome> => {
      if (get().busy[id]) return { ok: false, code: 'request', error: 'A decision on this proposal is already on its way.' }
      setBusy(id, true)
      let outcome: DecisionOutcome
      try {
        const result = await request()
        outcome = result.ok ? { ok: true } : { ok: false, code: result.code, error: result.error }
      } catch (error) {
        outcome = { ok: false, code: 'request', error: errorMessage(error) }
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
      loaded: false,
      loading: false,
      loadError: null,
      focusedId: null,
      busy: {},
      failures: {},
      approvingAll: null,

      async load() {
        const mine = ++seq
        set({ loading: true })
        try {
          const { proposals } = await client.request('inbox.list', { states: ['pending'] })
          if (mine !== seq) return
          const focusedId = proposals.some((p) => p.id === get().focusedId) ? get().focusedId : (screenOrder(proposals)[0]?.id ?? null)
          // A failure stays on a card still listed (a stale one); decided ones leave with their card.
          const failures = Object.fromEntries(Object.entries(get().failures).filter(([id]) => proposals.some((p) => p.id === Number(id))))
          set({ proposals, loaded: true, loading: false, loadError: null, focusedId, failures })
        } catch (error) {
          if (mine === seq) set({ loaded: true, loading: false, loadError: errorMessage(error) })
        }
      },

      focus: (focusedId) => set({ focusedId }),

      approve: (id, editedAfter) => decide(id, () => client.request('inbox.approve', { id, ...(editedAfter !== undefined ? { editedAfter } : {}) })),

      reject: (id) => decide(id, () => client.request('inbox.reject', { id })),

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
          throw new Error(errorMessage(error))
        }
      },

      dismissFailure(id) {
        const { [id]: _gone, ...failures } = get().failures
        set({ failures })
      },

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

import type { z } from 'zod'
import type { IpcHandlers } from '../../../../shared/ipc/contract'
import { IpcError } from '../../../../shared/ipc/define'
import type { proposalDecisionSchema, proposalSchema } from '../../../../shared/ipc/domain'
import type { Proposal } from '../../../../shared/proposals'
import { LearningState } from '../../learning/host/learning-state'
import { Inbox, type DecisionResult } from '../../learning/host/proposal-apply'
import { queueRereview } from '../../learning/host/rereview'
import type { LearningSlice } from './route-slices'

type InboxRoutes = 'inbox.list' | 'inbox.get' | 'inbox.approve' | 'inbox.reject' | 'inbox.approveAll' | 'inbox.rereview'

/** The Inbox routes: proposals listed with `stale` judged now, and decisions that emit `inbox.changed`. */
export function inboxHandlers(app: LearningSlice): Pick<IpcHandlers, InboxRoutes> {
  const inbox = (): Inbox => new Inbox(app.core)
  const decided = (results: DecisionResult[]): void => {
    if (results.some((result) => result.ok && result.ledgerEntry?.kind.startsWith('memory.'))) app.emit('memory.changed', {})
    emitPending(app)
  }
  return {
    'inbox.list': async ({ states, limit, beforeId }) => {
      const store = inbox()
      return { proposals: store.list({ states, limit, beforeId }).map(proposalView), pending: store.pending().count }
    },
    'inbox.get': async ({ id }) => {
      const proposal = inbox().get(id)
      if (!proposal) throw IpcError.of('NOT_FOUND', 'proposal.missing', { id })
      return proposalView(proposal)
    },
    'inbox.approve': async ({ id, editedAfter }) => {
      const result = await inbox().approve(id, editedAfter)
      decided([result])
      return decisionView(result)
    },
    'inbox.reject': async ({ id }) => {
      const result = await inbox().reject(id)
      decided([result])
      return decisionView(result)
    },
    'inbox.rereview': async ({ id }) => {
      const result = await inbox().supersede(id)
      decided([result])
      const reviewId = result.ok
        ? queueRereview(result.proposal, { loop: app.loop, host: app.host, state: new LearningState(app.core.db), sessionExists: (sessionId) => app.core.sessions.get(sessionId) !== null })
        : null
      return { result: decisionView(result), reviewId }
    },
    'inbox.approveAll': async ({ reviewId }) => {
      const results = await inbox().approveAll(reviewId)
      decided(results)
      return { results: results.map(decisionView) }
    }
  }
}

/** A proposal as the contract carries it (its `meta` as a plain record). */
function proposalView(proposal: Proposal): z.infer<typeof proposalSchema> {
  return { ...proposal, meta: { ...proposal.meta } }
}

function decisionView(result: DecisionResult): z.infer<typeof proposalDecisionSchema> {
  return result.ok ? { ...result, proposal: proposalView(result.proposal) } : result
}

/** Tells every window how many proposals wait (the Inbox badge, the tray). */
export function emitPending(app: Pick<LearningSlice, 'core' | 'emit'>): void {
  try {
    app.emit('inbox.changed', { pending: new Inbox(app.core).pending().count })
  } catch (error) {
    console.error('cairn: could not count the Inbox:', error)
  }
}

/** How often the Inbox is counted for proposals other processes (a CLI review, `cairn curate`) left. */
export const INBOX_CHECK_MS = 30_000

/**
 * A review that left proposals changes the Inbox: say so. This app's own reviews say it when they end;
 * those another process ran (a CLI chat's review, `cairn curate`) are noticed by counting now and then.
 * Returns the unsubscribe.
 */
export function watchInbox(app: LearningSlice, clock: { every(ms: number, tick: () => void): () => void }): () => void {
  let last = safeCount(app)
  const stopEvents = app.host.events.on((event) => {
    if (event.type === 'review_finished' && event.outcome.proposals?.length) {
      last = safeCount(app)
      emitPending(app)
    }
  })
  const stopTimer = clock.every(INBOX_CHECK_MS, () => {
    const now = safeCount(app)
    if (now !== last) {
      last = now
      emitPending(app)
    }
  })
  return () => {
    stopEvents()
    stopTimer()
  }
}

function safeCount(app: Pick<LearningSlice, 'core'>): number | null {
  try {
    return new Inbox(app.core).pending().count
  } catch {
    return null
  }
}

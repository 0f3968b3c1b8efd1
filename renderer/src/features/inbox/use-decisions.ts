import { useMemo } from 'react'
import { useApp, useT } from '../../app/context'
import { describeError } from '../../ipc/error-words'
import type { ProposalItem } from '../../stores/inbox'
import { describeProposal } from './proposal-words'

export interface Decisions {
  /** `editedAfter`: the user's own text, approved instead of the proposal's. */
  approve(proposal: ProposalItem, editedAfter?: string): Promise<boolean>
  reject(proposal: ProposalItem): Promise<boolean>
  rereview(proposal: ProposalItem): Promise<boolean>
  approveAll(reviewId: string): Promise<void>
}

/**
 * Approve, reject and approve-all as the buttons and the keys both run them: a stale proposal is
 * never sent for approval, and each outcome is said (a toast when it worked, the card when not).
 */
export function useDecisions(): Decisions {
  const t = useT()
  const { inbox, ui } = useApp()
  return useMemo<Decisions>(
    () => ({
      async approve(proposal, editedAfter) {
        if (proposal.stale) return false
        const edited = editedAfter !== undefined && editedAfter !== proposal.after ? editedAfter : undefined
        const outcome = await inbox.getState().approve(proposal.id, edited)
        if (outcome.ok) {
          const what = describeProposal(proposal, t)
          ui.getState().toast({ tone: 'success', text: t(edited !== undefined ? 'inbox.approvedEdited' : 'inbox.approved', { what }), action: { label: t('inbox.viewTimeline'), view: 'timeline' } })
        }
        return outcome.ok
      },
      async reject(proposal) {
        const outcome = await inbox.getState().reject(proposal.id)
        if (outcome.ok) ui.getState().toast({ tone: 'info', text: t('inbox.rejected', { what: describeProposal(proposal, t) }) })
        return outcome.ok
      },
      async rereview(proposal) {
        const outcome = await inbox.getState().rereview(proposal.id)
        if (outcome.ok) ui.getState().toast({ tone: 'info', text: t('inbox.rereviewing', { what: describeProposal(proposal, t) }) })
        return outcome.ok
      },
      async approveAll(reviewId) {
        try {
          const { approved, failed } = await inbox.getState().approveAll(reviewId)
          if (approved) ui.getState().toast({ tone: 'success', text: t('inbox.approvedAll', { count: approved }), action: { label: t('inbox.viewTimeline'), view: 'timeline' } })
          if (failed) ui.getState().toast({ tone: 'error', text: t('inbox.approveAllLeft', { count: failed }) }, 10_000)
        } catch (error) {
          ui.getState().toast({ tone: 'error', text: t('inbox.approveAllFailed', { error: describeError(error, t) }) }, 10_000)
        }
      }
    }),
    [inbox, ui, t]
  )
}

import type { WriteContext } from '../../../shared/ledger'
import { storedRationale } from '../../../shared/proposal-rationale'
import type { ProposalCause, ProposalKind } from '../../../shared/proposals'
import type { StateDb } from '../db/state-db'
import { ProposalStore } from '../ledger/proposals'

export interface SyncProposal {
  kind: ProposalKind
  target: string
  before: string | null
  after: string | null
  meta: Record<string, unknown>
  cause: 'sync_conflict' | 'sync_overflow' | 'dangerous_content'
}

/**
 * Files one side of a conflict (or what no longer fitted) in the Inbox under the sync's id, unless the
 * same change waits there already or was rejected; returns its id (null when it was not filed again).
 */
export function fileSyncProposal(db: StateDb, write: WriteContext, proposal: SyncProposal): number | null {
  const proposals = new ProposalStore(db)
  if (proposals.findIdentical(proposal, ['pending', 'rejected'])) return null
  const cause: ProposalCause = proposal.cause
  const added = proposals.add({
    origin: 'review',
    reviewId: write.reviewId ?? null,
    sessionId: null,
    kind: proposal.kind,
    target: proposal.target,
    before: proposal.before,
    after: proposal.after,
    meta: { ...proposal.meta, ...(write.device ? { device: write.device } : {}), ...(write.provenance ? { provenance: write.provenance } : {}) },
    reasons: [],
    cause,
    // Worded by every face from the cause and the device (shared/i18n/describe-rationale.ts).
    rationale: storedRationale({ code: proposal.cause, device: write.device || null })
  })
  return added.id
}

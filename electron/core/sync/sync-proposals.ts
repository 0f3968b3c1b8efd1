import type { WriteContext } from '../../../shared/ledger'
import type { ProposalCause, ProposalKind } from '../../../shared/proposals'
import type { StateDb } from '../db/state-db'
import { ProposalStore } from '../ledger/proposals'

/** The rationale the Inbox shows (in English, like a review's own words; the cause's badge and sentence are translated). */
const RATIONALE: Record<SyncProposal['cause'], (device: string) => string> = {
  dangerous_content: (device) => `${device} changed this in a way that could hurt if an assistant followed it, so the sync kept this device's version and put ${device}'s here. Look at it before you approve.`,
  sync_conflict: (device) => `This device and ${device} changed this in different ways, so the sync kept this device's version and put ${device}'s here. Approve to take it instead.`,
  sync_overflow: (device) => `This came from ${device}, but after the merge it did not fit under the memory file's limit, so it waits here instead of being cut. Make room (or shorten it), then approve.`
}

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
    rationale: RATIONALE[proposal.cause](write.device || 'another device')
  })
  return added.id
}

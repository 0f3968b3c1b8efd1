/**
 * What has become of what one review learned, as it stands now (the chat's note words it): its
 * proposals by the user's decision, and the ledger rows it wrote (applied by the review itself or by
 * approving one of its proposals) that are still in place or were reverted since. zod-free so the
 * renderer can use it (the schema is `reviewFateSchema` in ipc/domain.ts).
 */
export interface ReviewFate {
  reviewId: string
  /** Proposals still waiting in the Inbox. */
  pending: number
  /** Proposals the user approved (as proposed or with their own text). */
  approved: number
  /** Proposals the user rejected. */
  rejected: number
  /** Stale proposals set aside to be reviewed again. */
  setAside: number
  /** Changes it made (itself, or through an approval) still in place. */
  applied: number
  /** Changes it made that were reverted since. */
  undone: number
}

/** Reviews whose fates one request may ask for. */
export const MAX_FATES_PER_REQUEST = 100

/** A review nothing is known of: no proposal and no row. */
export function emptyFate(reviewId: string): ReviewFate {
  return { reviewId, pending: 0, approved: 0, rejected: 0, setAside: 0, applied: 0, undone: 0 }
}

import { emptyFate, type ReviewFate } from '../../../shared/review-fate'
import type { ProposalState } from '../../../shared/proposals'
import type { StateDb } from '../db/state-db'

/** Which count of a fate each proposal state adds to. */
const countOfState: Record<ProposalState, keyof Omit<ReviewFate, 'reviewId'>> = {
  pending: 'pending',
  approved: 'approved',
  edited: 'approved',
  rejected: 'rejected',
  superseded: 'setAside'
}

/**
 * What became of each review's proposals and changes, now (see ReviewFate), in the order asked; two
 * grouped queries over indexed columns whatever the number of reviews. Revert rows are not the
 * review's changes (they carry no review), and only committed rows count.
 */
export function reviewFates(db: StateDb, reviewIds: readonly string[]): ReviewFate[] {
  const ids = [...new Set(reviewIds)]
  if (!ids.length) return []
  const fates = new Map(ids.map((id) => [id, emptyFate(id)]))
  const marks = ids.map(() => '?').join(',')
  const proposals = db
    .prepare(`SELECT review_id AS reviewId, state, COUNT(*) AS count FROM proposals WHERE review_id IN (${marks}) GROUP BY review_id, state`)
    .all(...ids) as { reviewId: string; state: ProposalState; count: number }[]
  for (const row of proposals) {
    const fate = fates.get(row.reviewId)
    const count = countOfState[row.state]
    if (fate && count) fate[count] += row.count
  }
  const rows = db
    .prepare(
      `SELECT review_id AS reviewId, SUM(reverted_by IS NULL) AS applied, SUM(reverted_by IS NOT NULL) AS undone
       FROM ledger WHERE review_id IN (${marks}) AND state = 'committed' AND source != 'revert' GROUP BY review_id`
    )
    .all(...ids) as { reviewId: string; applied: number; undone: number }[]
  for (const row of rows) {
    const fate = fates.get(row.reviewId)
    if (fate) Object.assign(fate, { applied: row.applied, undone: row.undone })
  }
  return ids.map((id) => fates.get(id)!)
}

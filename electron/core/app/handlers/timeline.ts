import type { IpcHandlers } from '../../../../shared/ipc/contract'
import { IpcError } from '../../../../shared/ipc/define'
import type { AppContext } from '../app-context'
import { summarizeReview } from '../../learning/review-summary'
import { toReviewRun } from './learning'

export function timelineHandlers(app: AppContext): Pick<IpcHandlers, 'timeline.list' | 'timeline.get' | 'timeline.revert'> {
  return {
    'timeline.list': async ({ limit, beforeId, kinds, sources }) => {
      const entries = app.core.ledger.list({ limit, beforeId, kinds, sources })
      const reviewIds = [...new Set(entries.map((e) => e.reviewId).filter((id): id is string => Boolean(id)))]
      const reviews = reviewIds.flatMap((id) => {
        const run = app.host.runs.get(id)
        if (!run) return []
        // A run recorded before summaries were data has only an English line: rebuild it from its rows.
        const summary = run.summary ?? (run.status === 'done' ? summarizeReview(app.core.ledger.list({ reviewId: id, limit: 500 })) : null)
        return [{ ...toReviewRun(run), summary }]
      })
      return { entries, reviews }
    },
    'timeline.get': async ({ id }) => {
      const entry = app.core.ledger.get(id)
      if (!entry) throw IpcError.of('NOT_FOUND', 'timeline.entry_missing', { id })
      return entry
    },
    'timeline.revert': async ({ id, force }) => {
      const result = await app.core.revert(id, { force })
      if (result.ok) {
        if (result.revertEntry.kind.startsWith('memory.')) app.emit('memory.changed', {})
      }
      return result
    }
  }
}

import type { IpcHandlers } from '../../../../shared/ipc/contract'
import { IpcError } from '../../../../shared/ipc/define'
import type { LibrarySlice } from './route-slices'
import { storedReviewRun } from '../learned-changes'

export function timelineHandlers(app: LibrarySlice): Pick<IpcHandlers, 'timeline.list' | 'timeline.get' | 'timeline.revert'> {
  return {
    'timeline.list': async ({ limit, beforeId, kinds, sources }) => {
      const entries = app.core.ledger.list({ limit, beforeId, kinds, sources })
      const reviewIds = [...new Set(entries.map((e) => e.reviewId).filter((id): id is string => Boolean(id)))]
      const reviews = reviewIds.flatMap((id) => storedReviewRun({ ledger: app.core.ledger, host: app.host }, id) ?? [])
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

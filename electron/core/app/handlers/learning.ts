import type { IpcHandlers } from '../../../../shared/ipc/contract'
import { IpcError } from '../../../../shared/ipc/define'
import type { LearningStatus, ReviewRun } from '../../../../shared/ipc/domain'
import type { ReviewHostStatus } from '../../learning/host/review-host'
import type { ReviewRun as StoredRun } from '../../ledger/review-runs'
import { queueCuration } from '../../learning/host/curation-schedule'
import { LearningState } from '../../learning/host/learning-state'
import { ProposalStore } from '../../ledger/proposals'
import { reviewFates } from '../../ledger/review-fates'
import { archiveUnusedSkills } from '../../skills/skill-archive'
import type { LearningSlice } from './route-slices'

type LearningRoutes = 'learning.status' | 'learning.setEnabled' | 'learning.resume' | 'learning.reviewNow' | 'learning.setMode' | 'learning.curate' | 'learning.fates'

export function learningHandlers(app: LearningSlice): Pick<IpcHandlers, LearningRoutes> {
  // The host's own state: rows other processes left 'running' or 'queued' are not this app's reviews.
  const status = (): LearningStatus => {
    const host = app.host.status()
    const { enabled, mode } = app.core.config.get().learning
    const pending = new ProposalStore(app.core.db).pending()
    return {
      enabled,
      mode,
      pendingProposals: pending.count,
      oldestPendingAt: pending.oldestAt,
      paused: host.paused,
      pausedReason: host.pausedReason,
      running: host.running ? runningReview(host.running, app.host.runs.get(host.running.reviewId)) : null,
      queued: host.queued
    }
  }
  return {
    'learning.status': async () => status(),
    'learning.setEnabled': async ({ enabled }) => {
      const config = await app.core.config.update({ learning: { enabled } })
      app.emit('settings.changed', { config })
      return status()
    },
    'learning.setMode': async ({ mode }) => {
      // Choosing Auto or Ask turns learning on: one switch, whichever face sets it.
      const config = await app.core.config.update({ learning: mode === 'off' ? { mode } : { mode, enabled: true } })
      app.emit('settings.changed', { config })
      return status()
    },
    'learning.resume': async () => {
      app.host.resume()
      return status()
    },
    'learning.curate': async () => {
      const { enabled, mode } = app.core.config.get().learning
      if (!enabled || mode === 'off') throw IpcError.of('LEARNING_OFF', 'learning.off_curate', {})
      // Like `cairn curate`: unused skills Cairn made are archived first, then the pass is queued.
      await archiveUnusedSkills(app.core)
      return { reviewId: queueCuration(app.host, new LearningState(app.core.db)) }
    },
    'learning.fates': async ({ reviewIds }) => ({ fates: reviewFates(app.core.db, reviewIds) }),
    'learning.reviewNow': async ({ sessionId }) => {
      if (!app.core.sessions.get(sessionId)) throw IpcError.of('NOT_FOUND', 'conversation.missing', { id: sessionId })
      return { reviewId: app.loop.reviewNow(sessionId) }
    }
  }
}

/** The host's current review in the ReviewRun shape, from its `review_runs` row when there is one. */
function runningReview(running: NonNullable<ReviewHostStatus['running']>, row: StoredRun | null): ReviewRun {
  if (row) return { ...toReviewRun(row), status: 'running' }
  const { reviewId, sessionId, kinds, reasons, startedAt } = running
  return { id: reviewId, sessionId, kinds, reasons, status: 'running', queuedAt: startedAt, startedAt, finishedAt: null, summary: null, failure: null, error: null }
}

export function toReviewRun(run: StoredRun): ReviewRun {
  return {
    id: run.id,
    sessionId: run.sessionId,
    kinds: run.kinds,
    reasons: run.reasons,
    status: run.status,
    queuedAt: run.queuedAt,
    startedAt: run.startedAt,
    finishedAt: run.finishedAt,
    summary: run.summary,
    failure: run.failure,
    error: run.error,
    model: run.model,
    promptTokens: run.promptTokens,
    completionTokens: run.completionTokens
  }
}

import type { IpcHandlers } from '../../../../shared/ipc/contract'
import { IpcError } from '../../../../shared/ipc/define'
import type { LearningStatus, ReviewRun } from '../../../../shared/ipc/domain'
import type { ReviewRun as StoredRun } from '../../learning/review-runs'
import type { CairnApp } from '../cairn-app'

export function learningHandlers(app: CairnApp): Pick<IpcHandlers, 'learning.status' | 'learning.setEnabled' | 'learning.resume' | 'learning.reviewNow'> {
  const status = (): LearningStatus => {
    const recent = app.host.runs.list({ limit: 50 })
    const running = recent.find((run) => run.status === 'running')
    return {
      enabled: app.core.config.get().learning.enabled,
      paused: app.host.paused,
      pausedReason: app.host.paused ? 'Three background reviews in a row failed, so learning is paused. Resume it to try again.' : null,
      running: running ? toReviewRun(running) : null,
      queued: recent.filter((run) => run.status === 'queued').length
    }
  }
  return {
    'learning.status': async () => status(),
    'learning.setEnabled': async ({ enabled }) => {
      const config = await app.core.config.update({ learning: { enabled } })
      app.emit('settings.changed', { config })
      return status()
    },
    'learning.resume': async () => {
      app.host.resume()
      return status()
    },
    'learning.reviewNow': async ({ sessionId }) => {
      if (!app.core.sessions.get(sessionId)) throw new IpcError('NOT_FOUND', `There is no conversation ${sessionId}.`)
      return { reviewId: app.loop.reviewNow(sessionId) }
    }
  }
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
    error: run.error
  }
}

import { utilityProcess } from 'electron'
import reviewWorkerPath from '../../worker/review-entry?modulePath'
import { hermeticEnv, type WorkerSpawner } from '../../core/learning/host/spawn-worker'
import { utilityWorkerHandle } from './utility-handle'

/** The built review worker (a standalone chunk next to the main bundle). */
export const REVIEW_WORKER_PATH = reviewWorkerPath

/**
 * Starts each background review in its own Electron utility process. The environment is hermetic
 * (PATH, HOME, locale, TZ, temp dirs): the API key and the SQLite binary to load travel in the
 * start message, never in env.
 */
export function utilityReviewSpawner(): WorkerSpawner {
  return () => {
    const env = hermeticEnv() as Record<string, string>
    const child = utilityProcess.fork(REVIEW_WORKER_PATH, [], { serviceName: 'Cairn review', stdio: 'pipe', env })
    return utilityWorkerHandle(child)
  }
}

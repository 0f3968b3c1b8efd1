import { mkdirSync } from 'node:fs'
import { dirname } from 'node:path'
import lockfile from 'proper-lockfile'

export interface LockOptions {
  /** Where the lock lives; defaults to `<target>.lock`. */
  lockfilePath?: string
  /** How long to keep retrying before giving up, in milliseconds. */
  timeoutMs?: number
}

/**
 * Runs `fn` while holding an exclusive cross-process lock on `target` (proper-lockfile: an atomic
 * mkdir, refreshed while held, taken over when stale after a crash). The target need not exist.
 */
export async function withLock<T>(target: string, fn: () => Promise<T> | T, options: LockOptions = {}): Promise<T> {
  const lockfilePath = options.lockfilePath ?? `${target}.lock`
  mkdirSync(dirname(lockfilePath), { recursive: true })
  const timeoutMs = options.timeoutMs ?? 30_000
  const started = Date.now()
  let release: (() => Promise<void>) | undefined
  for (;;) {
    try {
      release = await lockfile.lock(target, {
        realpath: false,
        lockfilePath,
        stale: 10_000,
        update: 2_000,
        retries: { retries: 20, factor: 1.3, minTimeout: 2, maxTimeout: 40, randomize: true },
        // A compromised lock (e.g. the machine slept past `stale`) must not crash the process.
        onCompromised: () => {}
      })
      break
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ELOCKED' || Date.now() - started > timeoutMs) {
        throw new LockTimeoutError(target, error)
      }
    }
  }
  try {
    return await fn()
  } finally {
    await release().catch(() => {})
  }
}

export class LockTimeoutError extends Error {
  constructor(target: string, cause: unknown) {
    super(`Could not lock ${target}: another Cairn process has held it too long. Try again in a moment.`, { cause })
    this.name = 'LockTimeoutError'
  }
}

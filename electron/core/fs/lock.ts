import { AsyncLocalStorage } from 'node:async_hooks'
import nodeFs, { mkdirSync, statSync } from 'node:fs'
import { basename, dirname, resolve } from 'node:path'
import lockfile from 'proper-lockfile'

export interface LockOptions {
  /** Where the lock lives; defaults to `<target>.lock`. */
  lockfilePath?: string
  /** How long to keep retrying before giving up, in milliseconds. */
  timeoutMs?: number
  /** After how long without a refresh another process may take the lock over (see {@link lockStaleMs}). */
  staleMs?: number
}

/** proper-lockfile refuses anything shorter. */
const MIN_STALE_MS = 2_000
const DEFAULT_STALE_MS = 10_000

/**
 * How long a lock may go unrefreshed before another process takes it over: 10 s, or `CAIRN_LOCK_STALE_MS`
 * (at least 2 s) so fault tests can pause a holder past it in seconds rather than tens of seconds.
 */
export function lockStaleMs(env: NodeJS.ProcessEnv = process.env): number {
  const fromEnv = Number(env.CAIRN_LOCK_STALE_MS)
  return Number.isFinite(fromEnv) && fromEnv > 0 ? Math.max(MIN_STALE_MS, fromEnv) : DEFAULT_STALE_MS
}

/** A lock this process holds right now, as {@link withLock} hands it to its callback. */
export interface HeldLock {
  readonly target: string
  readonly lockfilePath: string
  /**
   * Throws {@link LockLostError} unless this process still owns the lock and it is not about to go stale.
   * Synchronous, so a caller can check and then rename in the same tick.
   */
  assertHeld(): void
}

/** The locks taken by the current async call chain (innermost last): what a write checks before it lands. */
const heldLocks = new AsyncLocalStorage<readonly HeldLock[]>()
/** Locks not yet released. Work a lock's callback scheduled (a listener, a timer) may run after the release: it is not under the lock any more. */
const activeLocks = new WeakSet<HeldLock>()

/**
 * Checks every lock the current call chain holds (see {@link HeldLock.assertHeld}); a no-op outside
 * {@link withLock}. The atomic writers call it right before their rename.
 */
export function assertLocksHeld(): void {
  for (const lock of heldLocks.getStore() ?? []) if (activeLocks.has(lock)) lock.assertHeld()
}

/**
 * The mtimes proper-lockfile gave each lock directory this process holds: its refreshes go through this
 * fs, so a directory whose mtime on disk is not among them was made by another process. While a
 * refresh is in flight both the old and the new mtime count as ours.
 */
const ourMtimes = new Map<string, Set<number>>()
const trackingFs = {
  ...nodeFs,
  utimes(path: string, atime: Date, mtime: Date, callback: (error: NodeJS.ErrnoException | null) => void): void {
    const ours = ourMtimes.get(path)
    ours?.add(mtime.getTime())
    nodeFs.utimes(path, atime, mtime, (error) => {
      if (ours && ourMtimes.get(path) === ours) {
        if (error) ours.delete(mtime.getTime())
        else ourMtimes.set(path, new Set([mtime.getTime()]))
      }
      callback(error)
    })
  }
}

/** An fs for proper-lockfile's unlock that forgets a lock without removing the directory (another process owns it now). */
const forgettingFs = { ...nodeFs, rmdir: (_path: string, callback: (error: null) => void) => callback(null) }

/**
 * Runs `fn` while holding an exclusive cross-process lock on `target` (proper-lockfile: an atomic
 * mkdir, refreshed while held, taken over when stale after a crash). The target need not exist.
 *
 * A holder that was paused past the stale time (SIGSTOP, a laptop asleep, a blocked event loop) may have
 * lost the lock to another process. Then its writes must not land: `fn` gets a {@link HeldLock} to
 * check, every atomic write inside `fn` checks it before its rename, and the lock is not released (the
 * directory belongs to the new owner).
 */
export async function withLock<T>(target: string, fn: (lock: HeldLock) => Promise<T> | T, options: LockOptions = {}): Promise<T> {
  const lockfilePath = resolve(options.lockfilePath ?? `${target}.lock`)
  mkdirSync(dirname(lockfilePath), { recursive: true })
  const timeoutMs = options.timeoutMs ?? 30_000
  const staleMs = Math.max(MIN_STALE_MS, options.staleMs ?? lockStaleMs())
  const started = Date.now()
  let compromised: Error | null = null
  let release: () => Promise<void>
  for (;;) {
    try {
      release = await lockfile.lock(target, {
        realpath: false,
        lockfilePath,
        stale: staleMs,
        update: Math.min(2_000, staleMs / 2),
        retries: { retries: 20, factor: 1.3, minTimeout: 2, maxTimeout: 40, randomize: true },
        fs: trackingFs,
        // Never a crash: the holder finds out through assertHeld before it writes.
        onCompromised: (error) => {
          compromised = error
        }
      })
      break
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ELOCKED' || Date.now() - started > timeoutMs) {
        throw new LockTimeoutError(target, error)
      }
    }
  }
  // Nobody can take a lock this fresh over, so what is on disk now is ours.
  ourMtimes.set(lockfilePath, new Set([statSync(lockfilePath).mtime.getTime()]))

  /** Null while the directory on disk is the one this process made and refreshed; else why not. */
  const takenOver = (): Error | null => {
    if (compromised) return compromised
    try {
      if (ourMtimes.get(lockfilePath)?.has(statSync(lockfilePath).mtime.getTime())) return null
      compromised = new Error('the lock was taken over by another process')
    } catch (error) {
      compromised = error as Error
    }
    return compromised
  }
  const lock: HeldLock = {
    target,
    lockfilePath,
    assertHeld() {
      const lost = takenOver()
      if (lost) throw new LockLostError(target, lost)
      // Still ours, but so close to stale that another process may be taking it over right now.
      if (Math.max(0, ...(ourMtimes.get(lockfilePath) ?? [])) < Date.now() - staleMs * 0.75) {
        throw new LockLostError(target, new Error('the lock was not refreshed in time'))
      }
    }
  }

  const outer = heldLocks.getStore() ?? []
  activeLocks.add(lock)
  try {
    return await heldLocks.run([...outer, lock], () => fn(lock))
  } finally {
    activeLocks.delete(lock)
    const lost = takenOver() !== null
    ourMtimes.delete(lockfilePath)
    if (lost) {
      // The directory is someone else's now: stop refreshing it, never remove it.
      await lockfile.unlock(target, { realpath: false, lockfilePath, fs: forgettingFs }).catch(() => {})
    } else {
      await release().catch(() => {})
    }
  }
}

export class LockTimeoutError extends Error {
  constructor(target: string, cause: unknown) {
    super(`Could not lock ${target}: another Cairn process has held it too long. Try again in a moment.`, { cause })
    this.name = 'LockTimeoutError'
  }
}

/**
 * This process held the lock, was paused past the stale time, and another process took the lock over
 * (or may be about to). The write that found out did not happen.
 */
export class LockLostError extends Error {
  constructor(target: string, cause: unknown) {
    super(
      `Another Cairn process took over the lock on ${basename(target)} while this write was paused; nothing was written. Try again.`,
      { cause }
    )
    this.name = 'LockLostError'
  }
}

import { lstatSync, rmdirSync } from 'node:fs'
import { join, relative } from 'node:path'
import type { HomePaths } from '../config/home'
import { findLockDirs } from '../fs/lock-dirs'
import { capDetails, plural, type Finding, type RepairAction } from './types'

/**
 * A lock (proper-lockfile's lock directory) whose holder has not refreshed it for this long is left
 * by a process that is gone: holders refresh theirs every 2 s, and other writers already take over a
 * lock after 10 s. A minute leaves room for a holder that is merely slow.
 */
export const STALE_LOCK_MS = 60_000

export interface StaleLock {
  path: string
  ageMs: number
}

/** Lock directories (`*.lock`) under `.locks/` and next to the memory files that are older than {@link STALE_LOCK_MS}. */
export function findStaleLocks(paths: HomePaths, now = Date.now()): StaleLock[] {
  // Locks sit up to three folders down in .locks/ (skills by category and name), and beside the memory files.
  return [...findLockDirs(paths.locksDir, 3), ...findLockDirs(paths.memoriesDir, 1)]
    .map((lock) => ({ path: lock.path, ageMs: now - lock.mtimeMs }))
    .filter((lock) => lock.ageMs > STALE_LOCK_MS)
    .sort((a, b) => (a.path < b.path ? -1 : 1))
}

export function checkLocks(paths: HomePaths, now = Date.now()): Finding {
  const stale = findStaleLocks(paths, now)
  if (stale.length === 0) return { check: 'locks', status: 'ok', summary: 'no stale locks', details: [], advice: null, repairable: false }
  return {
    check: 'locks',
    status: 'problem',
    summary: `${plural(stale.length, 'stale lock')} left by a Cairn process that is gone`,
    details: capDetails(stale.map((lock) => `${relative(paths.root, lock.path)} (untouched for ${formatAge(lock.ageMs)})`)),
    advice: 'Run "cairn doctor --repair" to remove them (writers would otherwise wait for them to time out).',
    repairable: true
  }
}

/** Removes the stale locks, re-checking each one's age first (a live process may have just taken it). */
export function removeStaleLocks(paths: HomePaths, now = Date.now()): RepairAction | null {
  const stale = findStaleLocks(paths, now)
  if (stale.length === 0) return null
  const removed: string[] = []
  const failed: string[] = []
  for (const lock of stale) {
    try {
      if (now - lstatSync(lock.path).mtimeMs <= STALE_LOCK_MS) continue
      // A proper-lockfile lock is an empty directory: anything else is not ours to remove.
      rmdirSync(lock.path)
      removed.push(relative(paths.root, lock.path))
    } catch (error) {
      failed.push(`${relative(paths.root, lock.path)}: ${(error as Error).message}`)
    }
  }
  return {
    check: 'locks',
    ok: failed.length === 0,
    summary: failed.length ? `removed ${plural(removed.length, 'stale lock')}; could not remove ${failed.length}` : `removed ${plural(removed.length, 'stale lock')}`,
    details: capDetails([...removed, ...failed])
  }
}

export function formatAge(ms: number): string {
  const minutes = Math.round(ms / 60_000)
  if (minutes < 1) return `${Math.max(1, Math.round(ms / 1000))} s`
  if (minutes < 120) return `${minutes} min`
  const hours = Math.round(minutes / 60)
  return hours < 48 ? `${hours} h` : `${Math.round(hours / 24)} days`
}

import { existsSync } from 'node:fs'
import { relative } from 'node:path'
import Database from 'better-sqlite3'
import { homePaths } from '../config/home'
import { lockStaleMs } from '../fs/lock'
import { findLockDirs } from '../fs/lock-dirs'

/**
 * Why another Cairn process is using the home right now, or null. Every process that opened the core
 * (the app, `cairn serve`, a chat, a review worker) keeps a shared lock on state.db while it is open
 * (WAL mode), so an exclusive lock that cannot be had means one is running; a lock folder refreshed
 * within the stale time means a write is under way.
 */
export function homeInUse(home: string, nativeBinding?: string): string | null {
  const paths = homePaths(home)
  if (existsSync(paths.stateDb) && databaseInUse(paths.stateDb, nativeBinding)) {
    return `state.db in ${home} is open in another Cairn process (the app, "cairn serve", a chat or a review).`
  }
  const live = liveLocks([paths.locksDir, paths.memoriesDir], lockStaleMs())
  if (live.length) return `another Cairn process is writing to ${home} (it holds ${relative(home, live[0])}).`
  return null
}

function databaseInUse(path: string, nativeBinding: string | undefined): boolean {
  let db: Database.Database | null = null
  try {
    db = new Database(path, { fileMustExist: true, nativeBinding })
    db.pragma('busy_timeout = 0')
    db.pragma('locking_mode = EXCLUSIVE')
    db.exec('BEGIN EXCLUSIVE')
    db.exec('ROLLBACK')
    return false
  } catch (error) {
    // A damaged file is no sign of a live process; the restore moves it aside with the rest.
    return (error as { code?: string }).code === 'SQLITE_BUSY'
  } finally {
    db?.close()
  }
}

function liveLocks(dirs: string[], staleMs: number, now = Date.now()): string[] {
  return dirs.flatMap((dir) => findLockDirs(dir, 3)).filter((lock) => now - lock.mtimeMs < staleMs).map((lock) => lock.path)
}

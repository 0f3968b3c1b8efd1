import { readdirSync, rmSync, statSync } from 'node:fs'
import { join, resolve } from 'node:path'
import { expandTilde } from '../config/home'

/** A backup archive in a backups folder, by the time its name carries. */
export interface BackupFile {
  file: string
  /** When it was made (from its name, local time). */
  at: number
  bytes: number
}

/** The names {@link backupFileName} makes: `cairn-<yyyymmdd-hhmmss>[-n].tar.gz`. Other files in the folder are the user's. */
const BACKUP_NAME = /^cairn-(\d{4})(\d{2})(\d{2})-(\d{2})(\d{2})(\d{2})(?:-(\d+))?\.tar\.gz$/

/** `backup.folder` as the user set it (`~` expands), else `<home>/backups`. */
export function resolveBackupFolder(home: string, folder: string): string {
  return folder.trim() ? resolve(expandTilde(folder.trim())) : join(home, 'backups')
}

/** The backups in `folder`, oldest first; none when it does not exist. */
export function listBackups(folder: string): BackupFile[] {
  let names: string[]
  try {
    names = readdirSync(folder)
  } catch {
    return []
  }
  const found: Array<BackupFile & { counter: number }> = []
  for (const name of names) {
    const match = BACKUP_NAME.exec(name)
    if (!match) continue
    const [year, month, day, hour, minute, second] = match.slice(1, 7).map(Number)
    try {
      const stats = statSync(join(folder, name))
      if (!stats.isFile()) continue
      found.push({ file: join(folder, name), at: new Date(year, month - 1, day, hour, minute, second).getTime(), bytes: stats.size, counter: Number(match[7] ?? 0) })
    } catch {
      // Removed while listing.
    }
  }
  return found.sort((a, b) => a.at - b.at || a.counter - b.counter).map(({ counter: _counter, ...file }) => file)
}

/** Removes the oldest backups until `keep` are left; returns the removed files. */
export function pruneBackups(folder: string, keep: number): string[] {
  const backups = listBackups(folder)
  const removed: string[] = []
  for (const backup of backups.slice(0, Math.max(0, backups.length - keep))) {
    rmSync(backup.file, { force: true })
    removed.push(backup.file)
  }
  return removed
}

/** The staging folder and temp archive of a backup in progress: `.<name>.<pid>-<hex>.tmp`, `<name>.<pid>-<hex>.partial`. */
const IN_PROGRESS = /^(?:\..+\.(\d+)-[0-9a-f]{8}\.tmp|.+\.(\d+)-[0-9a-f]{8}\.partial)$/

/** Removes what backups killed mid-way left in `folder` (their process is gone); a live backup's files are left alone. */
export function removeAbandonedBackupFiles(folder: string): string[] {
  let names: string[]
  try {
    names = readdirSync(folder)
  } catch {
    return []
  }
  const removed: string[] = []
  for (const name of names) {
    const match = IN_PROGRESS.exec(name)
    if (!match || processIsAlive(Number(match[1] ?? match[2]))) continue
    rmSync(join(folder, name), { recursive: true, force: true })
    removed.push(join(folder, name))
  }
  return removed
}

function processIsAlive(pid: number): boolean {
  if (pid === process.pid) return true
  try {
    process.kill(pid, 0)
    return true
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM'
  }
}

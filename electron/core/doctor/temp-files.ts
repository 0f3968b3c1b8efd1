import { existsSync, lstatSync, readdirSync, unlinkSync } from 'node:fs'
import { join, relative } from 'node:path'
import type { HomePaths } from '../config/home'
import { ORPHAN_TEMP_AGE_MS, findOrphanTempFiles, removeOrphanTempFiles } from '../fs/atomic'
import { findSkillTempFiles, removeSkillTempFiles } from '../skills/skill-dir-files'
import { ARCHIVE_DIR } from '../skills/skill-paths'
import { formatAge } from './locks'
import { capDetails, plural, type Finding, type RepairAction } from './types'

/** A database being created (`state.db.new-<pid>-<hex>`) or salvaged (`state.db.salvage-<time>`) by a process that was killed. */
const DATABASE_TEMP = /^state\.db\.(new-\d+-[0-9a-f]+|salvage-[0-9TZ-]+)(-journal|-wal|-shm)?$/

export interface OrphanTemp {
  path: string
  size: number
  ageMs: number
}

/**
 * The shared cleaners judge age on the real clock; the doctor's `now` (tests) moves the limit by the
 * difference, so "older than a minute at `now`" means the same to both.
 */
function ageLimit(now: number): { maxAgeMs: number } {
  return { maxAgeMs: ORPHAN_TEMP_AGE_MS + Date.now() - now }
}

/** `state.db.new-…` / `state.db.salvage-…` a database creation or a repair that was cut short left in the home's root. */
function findDatabaseTempFiles(root: string, now: number): string[] {
  let names: string[]
  try {
    names = readdirSync(root)
  } catch {
    return []
  }
  return names
    .filter((name) => DATABASE_TEMP.test(name))
    .map((name) => join(root, name))
    .filter((path) => {
      try {
        const stats = lstatSync(path)
        return stats.isFile() && now - stats.mtimeMs > ORPHAN_TEMP_AGE_MS
      } catch {
        return false
      }
    })
}

/**
 * Temp files a killed writer left, found by the atomic writer's own rules (fs/atomic: Cairn's
 * `<file>.cairn-<pid>-<n>.tmp` once its writer is gone or it is a minute old, write-file-atomic's
 * `<file>.<n>` once a minute old): next to config.json and secrets.json, MEMORY.md and USER.md, in the
 * skills tree (skills/skill-dir-files) and in the skills archive; plus `state.db.new-…` /
 * `state.db.salvage-…` from a database creation or repair that was cut short. Symlinks are never followed.
 */
export function findHomeTempFiles(paths: HomePaths, now = Date.now()): OrphanTemp[] {
  const age = ageLimit(now)
  const found = new Set([
    ...findOrphanTempFiles(paths.root, age),
    ...findDatabaseTempFiles(paths.root, now),
    ...findOrphanTempFiles(paths.memoriesDir, age),
    ...findSkillTempFiles(paths.skillsDir, age),
    ...findSkillTempFiles(join(paths.skillsDir, ARCHIVE_DIR), age)
  ])
  const orphans: OrphanTemp[] = []
  for (const path of found) {
    try {
      const stats = lstatSync(path)
      orphans.push({ path, size: stats.size, ageMs: Math.max(0, now - stats.mtimeMs) })
    } catch {
      // Gone since it was found: nothing to report.
    }
  }
  return orphans.sort((a, b) => (a.path < b.path ? -1 : 1))
}

export function checkTempFiles(paths: HomePaths, now = Date.now()): Finding {
  const orphans = findHomeTempFiles(paths, now)
  if (orphans.length === 0) return { check: 'temp-files', status: 'ok', summary: 'no orphan temp files', details: [], advice: null, repairable: false }
  return {
    check: 'temp-files',
    status: 'problem',
    summary: `${plural(orphans.length, 'orphan temp file')} left by writes that were killed (the files they were for are intact)`,
    details: capDetails(orphans.map((file) => `${relative(paths.root, file.path)} (${file.size} bytes, ${formatAge(file.ageMs)} old)`)),
    advice: 'Run "cairn doctor --repair" to remove them.',
    repairable: true
  }
}

/** Removes what {@link findHomeTempFiles} finds, through the same shared cleaners. */
export function removeHomeTempFiles(paths: HomePaths, now = Date.now()): RepairAction | null {
  const orphans = findHomeTempFiles(paths, now)
  if (orphans.length === 0) return null
  const age = ageLimit(now)
  const removedPaths = new Set([
    ...removeOrphanTempFiles(paths.root, age),
    ...removeOrphanTempFiles(paths.memoriesDir, age),
    ...removeSkillTempFiles(paths.skillsDir, age),
    ...removeSkillTempFiles(join(paths.skillsDir, ARCHIVE_DIR), age)
  ])
  const failed = new Map<string, string>()
  for (const path of findDatabaseTempFiles(paths.root, now)) {
    try {
      unlinkSync(path)
      removedPaths.add(path)
    } catch (error) {
      failed.set(path, (error as Error).message)
    }
  }
  // The shared cleaners skip what they cannot remove: whatever was found and is still there failed.
  for (const file of orphans) {
    if (!removedPaths.has(file.path) && !failed.has(file.path) && existsSync(file.path)) failed.set(file.path, 'could not be removed')
  }
  const removed = [...removedPaths].sort().map((path) => relative(paths.root, path))
  const failures = [...failed].map(([path, reason]) => `${relative(paths.root, path)}: ${reason}`)
  return {
    check: 'temp-files',
    ok: failures.length === 0,
    summary: failures.length
      ? `removed ${plural(removed.length, 'orphan temp file')}; could not remove ${failures.length}`
      : `removed ${plural(removed.length, 'orphan temp file')}`,
    details: capDetails([...removed, ...failures])
  }
}

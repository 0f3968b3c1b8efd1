import { lstatSync, readdirSync, unlinkSync } from 'node:fs'
import { join, relative } from 'node:path'
import type { HomePaths } from '../config/home'
import { formatAge } from './locks'
import { capDetails, plural, type Finding, type RepairAction } from './types'

/** A temp file younger than this may belong to a write in progress right now. */
export const ORPHAN_TEMP_MS = 60_000

/** Files Cairn writes atomically whose killed writes leave `<name>.<digits>` next to them. */
const KNOWN_TARGETS = new Set(['SKILL.md', 'MEMORY.md', 'USER.md', 'config.json', 'secrets.json'])

/** A database being created (`state.db.new-<pid>-<hex>`) or salvaged (`state.db.salvage-<time>`) by a process that was killed. */
const DATABASE_TEMP = /^state\.db\.(new-\d+-[0-9a-f]+|salvage-[0-9TZ-]+)(-journal|-wal|-shm)?$/

export interface OrphanTemp {
  path: string
  size: number
  ageMs: number
}

/**
 * Whether `name` (in a folder holding `siblings`) is write-file-atomic's temp name `<target>.<n>`
 * (n a 32-bit number) for a file Cairn writes: a known target, an existing sibling, or a name with
 * an extension (`api.md.123456`). A user's `backup.20240101` is none of these and is left alone.
 */
export function isAtomicTempName(name: string, siblings: ReadonlySet<string>): boolean {
  const match = /^(.+)\.(\d{1,10})$/.exec(name)
  if (!match) return false
  const [, target, digits] = match
  if (KNOWN_TARGETS.has(target) || siblings.has(target)) return true
  return digits.length >= 6 && /\.[A-Za-z0-9]+$/.test(target)
}

/**
 * Temp files a killed writer left: write-file-atomic's `<name>.<n>` next to SKILL.md, MEMORY.md,
 * USER.md, config.json and skill files (the archive included), and `state.db.new-…` / `state.db.salvage-…`
 * from a database creation or a repair that was cut short. Symlinks are never followed; files younger than {@link ORPHAN_TEMP_MS} are skipped.
 */
export function findOrphanTempFiles(paths: HomePaths, now = Date.now()): OrphanTemp[] {
  const found: OrphanTemp[] = []
  const visit = (dir: string, depth: number, recurse: boolean): void => {
    let names: string[]
    try {
      names = readdirSync(dir)
    } catch {
      return
    }
    const siblings = new Set(names)
    for (const name of names) {
      const path = join(dir, name)
      let stats
      try {
        stats = lstatSync(path)
      } catch {
        continue
      }
      if (stats.isDirectory()) {
        if (recurse && depth < 10) visit(path, depth + 1, true)
        continue
      }
      if (!stats.isFile()) continue
      const temp = isAtomicTempName(name, siblings) || (dir === paths.root && DATABASE_TEMP.test(name))
      const ageMs = now - stats.mtimeMs
      if (temp && ageMs > ORPHAN_TEMP_MS) found.push({ path, size: stats.size, ageMs })
    }
  }
  visit(paths.root, 0, false)
  visit(paths.memoriesDir, 0, false)
  visit(paths.skillsDir, 0, true)
  return found.sort((a, b) => (a.path < b.path ? -1 : 1))
}

export function checkTempFiles(paths: HomePaths, now = Date.now()): Finding {
  const orphans = findOrphanTempFiles(paths, now)
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

export function removeOrphanTempFiles(paths: HomePaths, now = Date.now()): RepairAction | null {
  const orphans = findOrphanTempFiles(paths, now)
  if (orphans.length === 0) return null
  const removed: string[] = []
  const failed: string[] = []
  for (const file of orphans) {
    try {
      unlinkSync(file.path)
      removed.push(relative(paths.root, file.path))
    } catch (error) {
      failed.push(`${relative(paths.root, file.path)}: ${(error as Error).message}`)
    }
  }
  return {
    check: 'temp-files',
    ok: failed.length === 0,
    summary: failed.length
      ? `removed ${plural(removed.length, 'orphan temp file')}; could not remove ${failed.length}`
      : `removed ${plural(removed.length, 'orphan temp file')}`,
    details: capDetails([...removed, ...failed])
  }
}

import { readdirSync, readFileSync, rmdirSync, type Dirent } from 'node:fs'
import { dirname, join, relative } from 'node:path'
import { findOrphanTempFiles, isAtomicTempName, removeOrphanTempFiles, type OrphanTempOptions } from '../fs/atomic'
import { EXCLUDED_DIRS, SKILL_FILE, SUPPORT_DIRS, isSupportDir, type SupportDir } from './skill-paths'

/** Supporting files of a skill grouped by folder; `other` holds files outside the four folders (read-only extras). */
export type LinkedFiles = Partial<Record<SupportDir | 'other', string[]>>

/**
 * Every file of a skill folder (relative, forward slashes), not following symlinks, SKILL.md excluded, and
 * never an atomic write's temp file (`SKILL.md.cairn-<pid>-<n>.tmp`, or write-file-atomic's `SKILL.md.<n>`).
 */
export function listSkillFiles(skillDir: string, maxFiles = 500): string[] {
  const out: string[] = []
  const visit = (dir: string, depth: number): void => {
    if (depth > 8 || out.length >= maxFiles) return
    let entries: Dirent[]
    try {
      entries = readdirSync(dir, { withFileTypes: true }).sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))
    } catch {
      return
    }
    for (const entry of entries) {
      const path = join(dir, entry.name)
      if (entry.isDirectory()) {
        if (!EXCLUDED_DIRS.has(entry.name)) visit(path, depth + 1)
      } else if (entry.isFile() && !isAtomicTempName(entry.name)) {
        const rel = relative(skillDir, path).split(/[\\/]/).join('/')
        if (rel !== SKILL_FILE && out.length < maxFiles) out.push(rel)
      }
    }
  }
  visit(skillDir, 0)
  return out
}

export function groupFiles(files: string[]): LinkedFiles {
  const grouped: LinkedFiles = {}
  for (const file of files) {
    const first = file.split('/')[0]
    const key = isSupportDir(first) && file.includes('/') ? first : 'other'
    ;(grouped[key] ??= []).push(file)
  }
  const ordered: LinkedFiles = {}
  for (const key of [...SUPPORT_DIRS, 'other'] as const) if (grouped[key]) ordered[key] = grouped[key]
  return ordered
}

const utf8 = new TextDecoder('utf-8', { fatal: true })

/** Text of a file, or null when it is binary (a NUL byte, or not valid UTF-8). */
export function decodeText(buffer: Buffer): string | null {
  if (buffer.includes(0)) return null
  try {
    return utf8.decode(buffer)
  } catch {
    return null
  }
}

export type FileRead = { kind: 'missing' } | { kind: 'dir' } | { kind: 'text'; text: string } | { kind: 'binary'; buffer: Buffer }

export function readSkillFile(path: string): FileRead {
  let buffer: Buffer
  try {
    buffer = readFileSync(path)
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code
    if (code === 'ENOENT' || code === 'ENOTDIR') return { kind: 'missing' }
    if (code === 'EISDIR') return { kind: 'dir' }
    throw error
  }
  const text = decodeText(buffer)
  return text === null ? { kind: 'binary', buffer } : { kind: 'text', text }
}

/**
 * Temp files that killed skill writes left anywhere under the skills folder (see findOrphanTempFiles):
 * what `cairn doctor` reports. `maxAgeMs` defaults to a minute.
 */
export function findSkillTempFiles(skillsDir: string, options: Pick<OrphanTempOptions, 'maxAgeMs'> = {}): string[] {
  return findOrphanTempFiles(skillsDir, { ...options, recursive: true, skipDirs: EXCLUDED_DIRS })
}

/** Removes what {@link findSkillTempFiles} finds (at load, and `cairn doctor --repair`); returns the removed paths. */
export function removeSkillTempFiles(skillsDir: string, options: Pick<OrphanTempOptions, 'maxAgeMs'> = {}): string[] {
  return removeOrphanTempFiles(skillsDir, { ...options, recursive: true, skipDirs: EXCLUDED_DIRS })
}

/** Removes `dir` and its parents while they are empty, stopping at `stopAt` (never removed). */
export function removeEmptyDirs(dir: string, stopAt: string): void {
  let current = dir
  while (current !== stopAt && relative(stopAt, current) && !relative(stopAt, current).startsWith('..')) {
    try {
      rmdirSync(current)
    } catch {
      return // not empty (or already gone): stop
    }
    current = dirname(current)
  }
}

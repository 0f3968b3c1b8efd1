import { lstatSync } from 'node:fs'
import { basename, dirname, isAbsolute, join, relative, sep } from 'node:path'

/**
 * Cairn never writes through a symlink it did not create: memory files, skills and their archive are
 * written only where every folder between the store's base and the file is a real folder.
 */

/**
 * The first symlink between `base` (exclusive) and `base/parts…` (inclusive), checked with lstat, or
 * null. Missing components are fine (they will be created, as real folders).
 */
export function symlinkOnPath(base: string, parts: readonly string[]): string | null {
  let current = base
  for (const part of parts) {
    current = join(current, part)
    try {
      if (lstatSync(current).isSymbolicLink()) return current
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code
      if (code === 'ENOENT' || code === 'ENOTDIR') return null
      throw error
    }
  }
  return null
}

/** {@link symlinkOnPath} for an absolute `path` below `base`; a path not below `base` is checked from its own folder. */
export function symlinkBelow(base: string, path: string): string | null {
  const rel = relative(base, path)
  if (rel === '') return null
  if (rel === '..' || rel.startsWith(`..${sep}`) || isAbsolute(rel)) return symlinkOnPath(dirname(path), [basename(path)])
  return symlinkOnPath(base, rel.split(sep))
}

import { lstatSync, readdirSync } from 'node:fs'
import { join } from 'node:path'

export interface LockDir {
  path: string
  /** When its holder last refreshed it (proper-lockfile touches the directory). */
  mtimeMs: number
}

/**
 * proper-lockfile's lock directories (`*.lock`) in `dir` and in folders up to `maxDepth` levels below
 * it; an unreadable folder is skipped, since a lock nobody can list is one nobody can hold either.
 */
export function findLockDirs(dir: string, maxDepth: number): LockDir[] {
  const found: LockDir[] = []
  const visit = (folder: string, depth: number): void => {
    let names: string[]
    try {
      names = readdirSync(folder)
    } catch {
      return
    }
    for (const name of names) {
      const path = join(folder, name)
      let stats
      try {
        stats = lstatSync(path)
      } catch {
        continue
      }
      if (!stats.isDirectory()) continue
      if (name.endsWith('.lock')) found.push({ path, mtimeMs: stats.mtimeMs })
      else if (depth < maxDepth) visit(path, depth + 1)
    }
  }
  visit(dir, 0)
  return found
}

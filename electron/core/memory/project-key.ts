import { createHash } from 'node:crypto'
import { realpathSync } from 'node:fs'
import { basename, resolve } from 'node:path'

/**
 * The key one workspace's project memory is kept under (`memories/projects/<key>/`, the archive's
 * `project_key`): a readable slug of the folder's name and a hash of its real path, so two folders of
 * the same name never share memory and a symlinked path finds the same memory as the real one.
 */
export function projectKeyFor(workspacePath: string): string {
  const real = realPathOf(workspacePath)
  const slug =
    basename(real)
      .normalize('NFKD')
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, '-')
      .replace(/^-+|-+$/g, '')
      .slice(0, 40) || 'workspace'
  const hash = createHash('sha256').update(real).digest('hex').slice(0, 12)
  return `${slug}-${hash}`
}

/** The workspace's real path; the resolved path when it no longer exists (its memory is still found by name). */
export function realPathOf(workspacePath: string): string {
  try {
    return realpathSync.native(workspacePath)
  } catch {
    return resolve(workspacePath)
  }
}

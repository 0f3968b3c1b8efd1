import { lstatSync, realpathSync } from 'node:fs'
import { join } from 'node:path'

/**
 * Whether `path` (the file `file` of the folder being imported) is reached through a link, its own or a
 * folder's on the way: a link can lead anywhere (`memories/MEMORY.md → ~/.aws/credentials`), so what
 * is behind it never comes in. The folder itself may be a link.
 */
export function reachedThroughLink(path: string, file: string): boolean {
  const relative = join(...file.split('/'))
  if (!path.endsWith(relative)) return true
  try {
    return realpathSync(path) !== join(realpathSync(path.slice(0, path.length - relative.length) || '.'), relative) || isHardLinked(path)
  } catch {
    return false // not there: the read says so
  }
}

/** A file with another name elsewhere (`ln ~/.ssh/id_rsa MEMORY.md`): no path check can tell where it really belongs. */
export function isHardLinked(path: string): boolean {
  try {
    const stats = lstatSync(path)
    return stats.isFile() && stats.nlink > 1
  } catch {
    return false
  }
}

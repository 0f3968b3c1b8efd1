import { readdirSync, statSync } from 'node:fs'
import { join } from 'node:path'

/** Folders read at most while decoding one project name: a name that matches nothing stops early anyway. */
const READ_BUDGET = 400

/** Claude Code names a project's folder after its path with every character but letters and digits turned into `-`. */
function encodedName(name: string): string {
  return name.replace(/[^a-zA-Z0-9]/g, '-')
}

function isDirectory(path: string): boolean {
  try {
    return statSync(path).isDirectory()
  } catch {
    return false
  }
}

/**
 * The folder on this machine a Claude Code project folder's name (`-home-mira-src-my-app`) stands
 * for, or null when none exists. The encoding loses `/` against `-`, `.` and `_`, so the name is
 * matched against the folders that really exist, one level at a time (the first full match wins).
 * Only absolute POSIX paths are recognised.
 */
export function workspaceOfClaudeProject(encoded: string, root = '/'): string | null {
  if (!encoded.startsWith('-') || encoded.length < 2) return null
  let budget = READ_BUDGET
  const walk = (dir: string, rest: string): string | null => {
    if (rest === '') return dir
    if (budget-- <= 0) return null
    let names: string[]
    try {
      names = readdirSync(dir).sort()
    } catch {
      return null
    }
    for (const name of names) {
      const piece = `-${encodedName(name)}`
      if (rest !== piece && !rest.startsWith(`${piece}-`)) continue
      const path = join(dir, name)
      if (!isDirectory(path)) continue
      const found = walk(path, rest.slice(piece.length))
      if (found) return found
    }
    return null
  }
  return walk(root, encoded)
}

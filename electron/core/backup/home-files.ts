import { lstatSync, readdirSync } from 'node:fs'
import { join, relative, sep } from 'node:path'
import { isAtomicTempName } from '../fs/atomic'

/**
 * The folders of a data home a backup holds, beside state.db and config.json (`prompts/`: the prompt library). `mem0/` is the Mem0
 * provider's own store in its open-source mode (memories that exist nowhere else). Everything else is
 * local to one machine or rebuilt: secrets.json (kept like the API key, the memory provider's key
 * too), secrets.local.json (browser mode's remembered keys), `memory-provider/` (a log of what was last sent to the provider), `.locks/`, `tmp/` (review
 * staging), `cache/`, `logs/`, `cli-history` and the backups themselves.
 */
export const BACKED_UP_FOLDERS = ['memories', 'skills', 'attachments', 'mem0', 'prompts'] as const

/** SQLite's side files: a database in `mem0/` is copied through SQLite's online backup, which reads them. */
const SQLITE_SIDE_FILE = /-(wal|shm|journal)$/
export const CONFIG_FILE = 'config.json'
export const STATE_DB = 'state.db'

export interface HomeFile {
  /** Relative to the home, with `/` separators (as the archive and the manifest name it). */
  path: string
  size: number
}

export interface HomeFileList {
  files: HomeFile[]
  /** Links and special files left out: a restore never creates them (see the archive checks). */
  skipped: string[]
}

/** The regular files of {@link BACKED_UP_FOLDERS} plus config.json, without lock folders and temp files of writes in flight. */
export function listHomeFiles(home: string): HomeFileList {
  const files: HomeFile[] = []
  const skipped: string[] = []
  const visit = (dir: string): void => {
    let names: string[]
    try {
      names = readdirSync(dir).sort()
    } catch {
      return
    }
    for (const name of names) {
      const path = join(dir, name)
      const rel = relative(home, path).split(sep).join('/')
      let stats
      try {
        stats = lstatSync(path)
      } catch {
        continue
      }
      if (stats.isDirectory()) {
        // proper-lockfile's lock directories (`MEMORY.md.lock`, `<skill>.lock`).
        if (!name.endsWith('.lock')) visit(path)
      } else if (stats.isFile()) {
        if (!isAtomicTempName(name) && !SQLITE_SIDE_FILE.test(name)) files.push({ path: rel, size: stats.size })
      } else {
        skipped.push(rel)
      }
    }
  }
  try {
    const config = lstatSync(join(home, CONFIG_FILE))
    if (config.isFile()) files.push({ path: CONFIG_FILE, size: config.size })
  } catch {
    // No settings saved yet: the defaults need no backup.
  }
  for (const folder of BACKED_UP_FOLDERS) visit(join(home, folder))
  return { files, skipped }
}

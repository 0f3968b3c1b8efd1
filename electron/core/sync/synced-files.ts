import { lstatSync, readdirSync, readFileSync, rmSync } from 'node:fs'
import { join } from 'node:path'
import { writeFileAtomicText } from '../fs/atomic'
import { ARCHIVE_PATH } from './archive-file'
import { isSyncedPath, MEMORY_PATHS } from './synced-paths'

/** Files' stats on disk. */
export type FileStats = Record<string, [mtimeMs: number, size: number]>

/** The synced files as last committed: their stats then and their blob ids. */
export interface StatCache {
  /** When the scan was taken: a file modified in the same moment may have changed without its stats showing it. */
  at: number
  files: Record<string, [mtimeMs: number, size: number, oid: string]>
}

/** Files modified this close to the scan are always looked at again (git's "racy" files). */
const RACY_MS = 2_000

/**
 * Which synced files may have changed since the last commit, found from their stats alone (a stat per
 * file instead of hashing all of them, which is what makes a sync of a large library with nothing
 * changed take milliseconds). Only a shortcut: without a readable cache every file is looked at.
 */
export class SyncedFiles {
  private readonly cacheFile: string

  constructor(private readonly home: string) {
    this.cacheFile = join(home, 'sync', 'stat-cache.json')
  }

  /** The synced files on disk with their stats. */
  scan(): { at: number; files: FileStats } {
    const at = Date.now()
    const files: FileStats = {}
    const note = (path: string): void => {
      try {
        // lstat: a link is never followed, so nothing outside the home can be committed through one.
        const stats = lstatSync(join(this.home, path))
        if (stats.isFile()) files[path] = [stats.mtimeMs, stats.size]
      } catch {
        // Gone meanwhile: not there.
      }
    }
    for (const path of [...Object.keys(MEMORY_PATHS), ARCHIVE_PATH]) note(path)
    for (const key of folderNames(join(this.home, 'memories', 'projects'))) note(`memories/projects/${key}/PROJECT.md`)
    const visit = (dir: string): void => {
      let entries
      try {
        entries = readdirSync(join(this.home, dir), { withFileTypes: true })
      } catch {
        return
      }
      for (const entry of entries) {
        const path = `${dir}/${entry.name}`
        if (entry.isDirectory()) {
          if (isSyncedPath(`${path}/x`)) visit(path)
        } else if (entry.isFile() && isSyncedPath(path)) note(path)
      }
    }
    visit('skills')
    visit('sessions')
    visit('prompts')
    return { at, files }
  }

  /** The files that may differ from the last commit (changed stats, added or gone), or null when there is no record to compare with. */
  candidates(current: { files: FileStats }, cached: StatCache | null): string[] | null {
    if (!cached) return null
    const changed: string[] = []
    for (const [path, [mtime, size]] of Object.entries(current.files)) {
      const known = cached.files[path]
      if (!known || known[0] !== mtime || known[1] !== size || mtime >= cached.at - RACY_MS) changed.push(path)
    }
    for (const path of Object.keys(cached.files)) if (!(path in current.files)) changed.push(path)
    return changed
  }

  /** Records the files as just committed: `oids` for those read this time, the recorded id for the others. */
  async save(scan: { at: number; files: FileStats }, oids: ReadonlyMap<string, string>, previous: StatCache | null): Promise<void> {
    const files: StatCache['files'] = {}
    for (const [path, [mtime, size]] of Object.entries(scan.files)) {
      const oid = oids.get(path) ?? previous?.files[path]?.[2]
      if (oid) files[path] = [mtime, size, oid]
    }
    await writeFileAtomicText(this.cacheFile, JSON.stringify({ at: scan.at, files } satisfies StatCache))
  }

  /** A new git copy knows none of the files: everything is looked at. */
  forget(): void {
    rmSync(this.cacheFile, { force: true })
  }

  read(): StatCache | null {
    try {
      const parsed = JSON.parse(readFileSync(this.cacheFile, 'utf8')) as StatCache
      const valid = typeof parsed.at === 'number' && parsed.files && typeof parsed.files === 'object'
      return valid && Object.values(parsed.files).every((entry) => Array.isArray(entry) && typeof entry[2] === 'string') ? parsed : null
    } catch {
      return null
    }
  }
}

/** The folders directly in `dir` (none when it is missing). */
function folderNames(dir: string): string[] {
  try {
    return readdirSync(dir, { withFileTypes: true }).filter((entry) => entry.isDirectory()).map((entry) => entry.name)
  } catch {
    return []
  }
}

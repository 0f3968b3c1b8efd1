import { existsSync, type Stats } from 'node:fs'
import { basename, join } from 'node:path'
import { watch, type FSWatcher } from 'chokidar'
import { EXCLUDED_DIRS, MAX_SCAN_DEPTH, SKILL_FILE } from './skill-paths'

/** Longer than chokidar's change throttle (50 ms). */
const RECHECK_MS = 150

export type WatchEvent = { type: 'file'; kind: 'add' | 'change' | 'unlink'; path: string } | { type: 'dir-removed'; path: string }

/**
 * Watches skill roots for edits made outside Cairn (an editor, `git pull`) and reports SKILL.md
 * additions, changes and removals, plus removed folders (a skill deleted or renamed away).
 */
export class SkillWatcher {
  private watcher: FSWatcher | null = null
  private readonly recheck = new Map<string, NodeJS.Timeout>()

  constructor(private readonly roots: string[], private readonly onEvent: (event: WatchEvent) => void) {}

  async start(): Promise<void> {
    if (this.watcher) return
    const roots = this.roots.filter((root) => existsSync(root))
    if (roots.length === 0) return
    const watcher = watch(roots, {
      ignoreInitial: true,
      followSymlinks: true,
      depth: MAX_SCAN_DEPTH + 1,
      // A function, not globs (chokidar 5 has none): skip excluded folders and every file but SKILL.md.
      ignored: (path: string, stats?: Stats) => {
        const name = basename(path)
        // Ignoring a folder keeps chokidar out of it, so checking the last segment covers everything below.
        if (EXCLUDED_DIRS.has(name)) return true
        return Boolean(stats?.isFile() && name !== SKILL_FILE)
      }
    })
    watcher.on('add', (path) => this.fileEvent('add', path))
    watcher.on('change', (path) => this.fileEvent('change', path))
    watcher.on('unlink', (path) => this.fileEvent('unlink', path))
    watcher.on('unlinkDir', (path) => this.onEvent({ type: 'dir-removed', path }))
    // A new skill folder races chokidar: if its SKILL.md is renamed into place after chokidar read the
    // new folder but before it watched it, no 'add' ever comes. Look for it once the folder has settled.
    watcher.on('addDir', (dir) => this.recheckLater(join(dir, SKILL_FILE), true))
    // A watcher error (e.g. too many watched folders) must not crash the app; the index stays as it
    // was, and the user is told that outside edits may not show up until the next start.
    watcher.on('error', (error) => {
      console.error('cairn: watching the skill folders failed; edits made outside Cairn may not show up until it restarts:', error)
    })
    this.watcher = watcher
    await new Promise<void>((resolve) => watcher.once('ready', () => resolve()))
  }

  private fileEvent(kind: 'add' | 'change' | 'unlink', path: string): void {
    if (basename(path) !== SKILL_FILE) return
    this.onEvent({ type: 'file', kind, path })
    // chokidar drops a second change to the same file within its throttle window (two quick saves, a
    // git checkout), so look again once the window has passed; an unchanged file is a no-op downstream.
    this.recheckLater(path)
  }

  private recheckLater(path: string, onlyIfPresent = false): void {
    clearTimeout(this.recheck.get(path))
    const timer = setTimeout(() => {
      this.recheck.delete(path)
      if (this.watcher && (!onlyIfPresent || existsSync(path))) this.onEvent({ type: 'file', kind: 'change', path })
    }, RECHECK_MS)
    timer.unref()
    this.recheck.set(path, timer)
  }

  async close(): Promise<void> {
    const watcher = this.watcher
    this.watcher = null
    for (const timer of this.recheck.values()) clearTimeout(timer)
    this.recheck.clear()
    await watcher?.close()
  }
}

import { chmodSync, chownSync, mkdirSync, readdirSync, readFileSync, realpathSync, renameSync, statSync, unlinkSync, writeFileSync, type Dirent, type Stats } from 'node:fs'
import { open } from 'node:fs/promises'
import { basename, dirname, join } from 'node:path'
import writeFileAtomic from 'write-file-atomic'
import { assertLocksHeld } from './lock'

export interface AtomicWriteOptions {
  /**
   * What the file held when the caller read it (`null`: it did not exist). Right before the rename the
   * file is compared with it, and a file that changed since fails the write with {@link StaleWriteError}:
   * a write computed from a stale read never lands.
   */
  expect?: string | Buffer | null
}

/** The file changed on disk between the caller's read and its write; nothing was written. */
export class StaleWriteError extends Error {
  constructor(path: string) {
    super(`${basename(path)} changed on disk while this write was being prepared; nothing was written. Try again.`)
    this.name = 'StaleWriteError'
  }
}

let tempCounter = 0

/** `<file>.cairn-<pid>-<n>.tmp`: the writer's pid in the name lets a cleaner tell a live write from an orphan. */
function tempPathFor(path: string): string {
  return `${path}.cairn-${process.pid}-${++tempCounter}.tmp`
}

/**
 * Writes through a temp file + fsync + rename, so a crash leaves either the old or the new file, never
 * half of one. Right before the rename, in the same tick, it checks that every lock the caller holds
 * is still its own (see withLock) and, with `expect`, that the file is still what the caller read;
 * either failing throws and leaves the file as it was. Like write-file-atomic (which Cairn used before),
 * a symlink is written through to its target, and an existing file keeps its mode and owner.
 */
export async function writeFileAtomicText(path: string, data: string | Buffer, options: AtomicWriteOptions = {}): Promise<void> {
  faultPoint('before-write', path)
  mkdirSync(dirname(path), { recursive: true })
  const target = realpathOrSelf(path)
  const temp = tempPathFor(target)
  let existing: Stats | undefined
  try {
    existing = statSync(target)
  } catch {
    existing = undefined
  }
  try {
    const handle = await open(temp, 'wx')
    try {
      await handle.writeFile(data, typeof data === 'string' ? 'utf8' : undefined)
      await handle.sync()
    } finally {
      await handle.close()
    }
    if (existing) keepModeAndOwner(temp, existing)
    faultPoint('before-rename', path)
    assertLocksHeld()
    if (options.expect !== undefined) assertUnchanged(target, options.expect)
    renameSync(temp, target)
  } catch (error) {
    try {
      unlinkSync(temp)
    } catch {
      // Never created, or already renamed away.
    }
    throw error
  }
  faultPoint('after-rename', path)
}

function realpathOrSelf(path: string): string {
  try {
    return realpathSync(path)
  } catch {
    return path
  }
}

function keepModeAndOwner(temp: string, existing: Stats): void {
  chmodSync(temp, existing.mode & 0o7777)
  if (process.getuid && (existing.uid !== process.getuid() || existing.gid !== process.getgid?.())) {
    try {
      chownSync(temp, existing.uid, existing.gid)
    } catch {
      // Only root may give a file away; anyone else keeps their own ownership, as write-file-atomic did.
    }
  }
}

export function writeFileAtomicTextSync(path: string, text: string): void {
  mkdirSync(dirname(path), { recursive: true })
  writeFileAtomic.sync(path, text, { encoding: 'utf8', fsync: true })
}

/** Throws {@link StaleWriteError} unless `path` holds exactly `expected` (`null`: does not exist). */
export function assertUnchanged(path: string, expected: string | Buffer | null): void {
  let current: Buffer | null
  try {
    current = readFileSync(path)
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code
    if (code !== 'ENOENT' && code !== 'ENOTDIR') throw error
    current = null
  }
  if (current === null || expected === null) {
    if (current === expected) return
    throw new StaleWriteError(path)
  }
  if (!current.equals(typeof expected === 'string' ? Buffer.from(expected, 'utf8') : expected)) throw new StaleWriteError(path)
}

// ---- orphan temp files ----------------------------------------------------------------------------

const CAIRN_TEMP = /^(.+)\.cairn-(\d+)-\d+\.tmp$/
/**
 * write-file-atomic's `<file>.<32-bit hash>`, only for the files Cairn wrote (or still writes) through it:
 * the memory files, SKILL.md, config.json and secrets.json. Any other name with digits after it
 * (`references/schema.sql.20240131`) is the user's file, never hidden or removed as a temp file.
 */
const LEGACY_TEMP = /^(MEMORY\.md|USER\.md|SKILL\.md|config\.json|secrets\.json)\.\d{6,10}$/

/** A temp file an atomic write makes next to its target (ours, or write-file-atomic's): never a file of its own. */
export function isAtomicTempName(name: string): boolean {
  return CAIRN_TEMP.test(name) || LEGACY_TEMP.test(name)
}

/** The file a temp name belongs to (`SKILL.md` for `SKILL.md.cairn-12-3.tmp`), or null. */
export function tempTargetName(name: string): string | null {
  return CAIRN_TEMP.exec(name)?.[1] ?? LEGACY_TEMP.exec(name)?.[1] ?? null
}

/** A temp file older than this is an orphan even if a process with its writer's pid is running (pids are reused). */
export const ORPHAN_TEMP_AGE_MS = 60_000

export interface OrphanTempOptions {
  /** Look in subfolders too (a skills tree). */
  recursive?: boolean
  /** Folder names not to descend into. */
  skipDirs?: ReadonlySet<string>
  /** Only temp files of this file name (e.g. `MEMORY.md`). */
  forFile?: string
  /** Age after which any temp file is an orphan; 0 while holding the target's lock (no live write can own one). */
  maxAgeMs?: number
  now?: number
}

function pidIsDead(pid: number): boolean {
  if (pid === process.pid) return false
  try {
    process.kill(pid, 0)
    return false
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'ESRCH'
  }
}

/**
 * Temp files that a writer killed mid-write left behind: Cairn's own once their writer's pid is gone or
 * they are older than `maxAgeMs`, write-file-atomic's once older than `maxAgeMs` (a minute by default:
 * a live write keeps its temp file for milliseconds). Symlinks are never followed.
 */
export function findOrphanTempFiles(dir: string, options: OrphanTempOptions = {}): string[] {
  const maxAge = options.maxAgeMs ?? ORPHAN_TEMP_AGE_MS
  const now = options.now ?? Date.now()
  const found: string[] = []
  const visit = (folder: string, depth: number): void => {
    let entries: Dirent[]
    try {
      entries = readdirSync(folder, { withFileTypes: true })
    } catch {
      return
    }
    for (const entry of entries) {
      const path = join(folder, entry.name)
      if (entry.isDirectory()) {
        if (options.recursive && depth < 12 && !options.skipDirs?.has(entry.name)) visit(path, depth + 1)
        continue
      }
      if (!entry.isFile()) continue
      const target = tempTargetName(entry.name)
      if (target === null || (options.forFile !== undefined && target !== options.forFile)) continue
      let old: boolean
      try {
        old = now - statSync(path).mtimeMs >= maxAge
      } catch {
        continue
      }
      const pid = CAIRN_TEMP.exec(entry.name)?.[2]
      if (old || (pid !== undefined && pidIsDead(Number(pid)))) found.push(path)
    }
  }
  visit(dir, 0)
  return found.sort()
}

/** Removes what {@link findOrphanTempFiles} finds; returns the paths it removed. */
export function removeOrphanTempFiles(dir: string, options: OrphanTempOptions = {}): string[] {
  const removed: string[] = []
  for (const path of findOrphanTempFiles(dir, options)) {
    try {
      unlinkSync(path)
      removed.push(path)
    } catch {
      // Gone already, or not ours to remove: nothing is lost either way.
    }
  }
  return removed
}

// ---- fault injection for tests ------------------------------------------------------------------

let faultHits = 0

/**
 * Test hook: `CAIRN_FAULT=<point>:<stop|kill>[:<file name>[:<n>]]` stops (SIGSTOP) or kills (SIGKILL) this
 * process at `before-write`, `before-rename` or `after-rename` of the n-th atomic write (default the first) of that file,
 * after writing its pid to `CAIRN_FAULT_MARK` if set, so a test can wait on the file instead of the clock.
 */
function faultPoint(point: 'before-write' | 'before-rename' | 'after-rename', path: string): void {
  const spec = process.env.CAIRN_FAULT
  if (!spec) return
  const [at, action, file, nth] = spec.split(':')
  if (at !== point || (file && file !== basename(path))) return
  faultHits++
  if (faultHits !== (nth ? Number(nth) : 1)) return
  const mark = process.env.CAIRN_FAULT_MARK
  if (mark) writeFileSync(mark, String(process.pid))
  if (action === 'stop') process.kill(process.pid, 'SIGSTOP')
  else if (action === 'kill') process.kill(process.pid, 'SIGKILL')
}

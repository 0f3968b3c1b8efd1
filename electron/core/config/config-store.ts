import type { ErrorKey, ErrorParamsByKey } from '../../../shared/error-keys'
import { KeyedError } from '../../../shared/keyed-error'
import { existsSync, mkdirSync, readFileSync, statSync, watch, type FSWatcher } from 'node:fs'
import { basename, dirname, join } from 'node:path'
import { isDeepStrictEqual } from 'node:util'
import { configSchema, type CairnConfig, type ConfigPatch } from '../../../shared/config'
import { issueLines } from '../../../shared/zod-issues'
import { StaleWriteError, writeFileAtomicText } from '../fs/atomic'
import { LockLostError, withLock } from '../fs/lock'

/** The settings file could not be used. The file is left exactly as it was. */
export class ConfigError<K extends ConfigErrorKey = ConfigErrorKey> extends KeyedError<K> {
  constructor(key: K, params: ErrorParamsByKey[K]) {
    super(key, params)
    this.name = 'ConfigError'
  }
}

type ConfigErrorKey = Extract<ErrorKey, `config.${string}`>

/** Reads and writes `config.json` (a {@link ConfigStore}, or a stand-in in tests). */
export interface SettingsStore {
  get(): CairnConfig
  update(patch: ConfigPatch): Promise<CairnConfig>
  /** Rewrites the raw file content as `change` returns it (a section replaced or a key removed, which a merge cannot do). */
  edit(change: (raw: Record<string, unknown>) => Record<string, unknown>): Promise<CairnConfig>
}

/** Editors save in several steps (truncate, write, rename): settle before reading. */
const CHANGE_SETTLE_MS = 100

/**
 * The one owner of `config.json`, in every process (the app, the CLI, the review worker). Other
 * processes' edits are picked up on read; a process that wants to hear about them (the app, to
 * update its windows) subscribes with {@link onChange}, which starts watching the file.
 */
export class ConfigStore implements SettingsStore {
  private cached: CairnConfig | null = null
  /** Inode, size and times of the file when it was last read: any rewrite changes them. */
  private stamp = ''
  /** Why the latest edit on disk is not in effect (it is malformed); null when it is. */
  problem: string | null = null
  private watcher: FSWatcher | null = null
  private settleTimer: NodeJS.Timeout | null = null
  /** The settings listeners last heard of (or this process wrote): what an outside edit is compared with. */
  private lastAnnounced: CairnConfig | null = null
  /** Updates in flight: the file may already hold our write while the cache does not yet. */
  private writing = 0
  private readonly changeListeners = new Set<(config: CairnConfig) => void>()
  private readonly problemListeners = new Set<(message: string) => void>()

  constructor(readonly path: string) {}

  /**
   * Defaults when the file is missing; a clear {@link ConfigError} when it is malformed (never reset).
   * Picks up edits made by other processes (the app, a CLI). A malformed edit made while this process
   * runs keeps the last good settings in effect and is reported: in {@link problem}, to
   * {@link onProblem} listeners (on stderr when there are none).
   */
  get(): CairnConfig {
    const stamp = this.fileStamp()
    if (this.cached && stamp === this.stamp) return this.cached
    try {
      this.cached = parseConfig(this.readRaw(), this.path)
      this.problem = null
    } catch (error) {
      if (!this.cached || !(error instanceof ConfigError)) throw error
      if (this.problem !== error.message) this.report(error.message)
      this.problem = error.message
    }
    this.stamp = stamp
    return this.cached
  }

  /** Re-reads the file now. */
  reload(): CairnConfig {
    this.cached = null
    return this.get()
  }

  /**
   * Settings changed by someone else (a CLI, an editor), after they settle; never this store's own
   * updates (their caller announces them). The first listener starts watching the file.
   */
  onChange(listener: (config: CairnConfig) => void): () => void {
    this.changeListeners.add(listener)
    this.watch()
    return () => this.changeListeners.delete(listener)
  }

  /** An outside edit left the file malformed (once per bad version); the last good settings stay in effect. */
  onProblem(listener: (message: string) => void): () => void {
    this.problemListeners.add(listener)
    this.watch()
    return () => this.problemListeners.delete(listener)
  }

  /** Stops watching the file. */
  close(): void {
    if (this.settleTimer) clearTimeout(this.settleTimer)
    this.settleTimer = null
    this.watcher?.close()
    this.watcher = null
  }

  private watch(): void {
    if (this.watcher) return
    try {
      this.lastAnnounced = this.get()
    } catch {
      // Malformed from the start: the first good edit is news.
    }
    mkdirSync(dirname(this.path), { recursive: true })
    const name = basename(this.path)
    // The folder, not the file: an atomic write replaces the file, which would end a watch on it.
    this.watcher = watch(dirname(this.path), { persistent: false }, (_event, filename) => {
      if (filename === null || filename === name) this.settleThenCheck()
    })
    this.watcher.on('error', (error) => {
      console.error(`cairn: watching ${this.path} failed; edits made outside Cairn show up only when the settings are next read:`, error)
      this.close()
    })
  }

  private settleThenCheck(): void {
    if (this.settleTimer) clearTimeout(this.settleTimer)
    this.settleTimer = setTimeout(() => {
      this.settleTimer = null
      this.checkOutsideEdit()
    }, CHANGE_SETTLE_MS)
    this.settleTimer.unref()
  }

  private checkOutsideEdit(): void {
    if (!this.watcher) return
    if (this.writing > 0) return this.settleThenCheck()
    let config: CairnConfig
    try {
      config = this.get()
    } catch (error) {
      // Malformed since before anything good was read: there are no settings to keep, only a problem to report.
      const message = error instanceof Error ? error.message : String(error)
      if (this.problem !== message) this.report(message)
      this.problem = message
      return
    }
    if (isDeepStrictEqual(config, this.lastAnnounced)) return
    this.lastAnnounced = config
    for (const listener of this.changeListeners) safely(() => listener(config))
  }

  private report(message: string): void {
    if (this.problemListeners.size === 0) console.error(`cairn: ${message}\nKeeping the settings that were in effect.`)
    for (const listener of this.problemListeners) safely(() => listener(message))
  }

  private fileStamp(): string {
    try {
      const stat = statSync(this.path)
      return `${stat.ino}:${stat.size}:${stat.mtimeMs}:${stat.ctimeMs}`
    } catch {
      return 'missing'
    }
  }

  /**
   * Deep-merges `patch` into the file under a lock, keeping keys this version does not know. The write
   * lands only if this process still holds the lock and the file is what it read (a holder paused past
   * the lock's stale time must not write back its stale copy); otherwise the merge is redone once on a
   * fresh read.
   */
  async update(patch: ConfigPatch): Promise<CairnConfig> {
    return this.edit((raw) => deepMerge(raw, patch as Record<string, unknown>))
  }

  /** Like {@link update}, with the new content computed from the raw file by `change` (which must not mutate it). */
  async edit(change: (raw: Record<string, unknown>) => Record<string, unknown>): Promise<CairnConfig> {
    for (let attempt = 0; ; attempt++) {
      try {
        return await withLock(this.path, async () => {
          const expected = readBytesOrNull(this.path)
          const raw = this.readRaw()
          const merged = change(raw)
          const parsed = parseConfig(merged, this.path)
          this.writing++
          try {
            await writeFileAtomicText(this.path, JSON.stringify(merged, null, 2) + '\n', { expect: expected })
          } finally {
            this.writing--
          }
          this.cached = parsed
          this.stamp = this.fileStamp()
          this.lastAnnounced = parsed
          this.problem = null
          return parsed
        }, { lockfilePath: join(dirname(this.path), '.locks', 'config.lock') })
      } catch (error) {
        if (attempt > 0 || !(error instanceof LockLostError || error instanceof StaleWriteError)) throw error
      }
    }
  }

  private readRaw(): Record<string, unknown> {
    if (!existsSync(this.path)) return {}
    const text = readFileSync(this.path, 'utf8')
    if (text.trim() === '') return {}
    let value: unknown
    try {
      value = JSON.parse(text)
    } catch (error) {
      throw new ConfigError('config.not_json', { path: this.path, detail: (error as Error).message })
    }
    if (!isPlainObject(value)) {
      throw new ConfigError('config.not_object', { path: this.path })
    }
    return value
  }
}

export function parseConfig(raw: unknown, source = 'config.json'): CairnConfig {
  const result = configSchema.safeParse(raw)
  if (result.success) return result.data
  const issues = issueLines(result.error, { root: '(root)' }).map((line) => `  - ${line}`)
  throw new ConfigError('config.invalid', { source, issues: issues.join('\n') })
}

function readBytesOrNull(path: string): Buffer | null {
  try {
    return readFileSync(path)
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null
    throw error
  }
}

function safely(run: () => void): void {
  try {
    run()
  } catch (error) {
    console.error('cairn: a settings listener failed:', error)
  }
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}

/** Objects merge key by key; arrays and scalars in the patch replace; `undefined` leaves a key alone. */
export function deepMerge(base: Record<string, unknown>, patch: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = { ...base }
  for (const [key, value] of Object.entries(patch)) {
    if (value === undefined) continue
    const current = out[key]
    out[key] = isPlainObject(value) && isPlainObject(current) ? deepMerge(current, value) : value
  }
  return out
}

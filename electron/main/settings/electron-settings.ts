import { statSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { isDeepStrictEqual } from 'node:util'
import type { CairnConfig, ConfigPatch } from '../../../shared/config'
import { ConfigError, deepMerge, parseConfig, type SettingsStore } from '../../core/config/config-store'
import { withLock } from '../../core/fs/lock'

/** The part of electron-store (its base class `conf`) this wrapper uses. */
export interface SettingsBackend {
  readonly path: string
  /** Reading parses the file afresh; assigning writes it atomically and fires `change`. */
  store: Record<string, unknown>
  /** Fires `change` after our writes and (with `watch: true`) when another process changes the file. */
  readonly events: EventTarget
  _closeWatcher(): void
}

class NotAnObjectError extends Error {}

/** Same file format as the CLI's ConfigStore: 2-space JSON, an object at the top, empty = defaults. */
export const settingsFileFormat = {
  serialize: (value: Record<string, unknown>): string => JSON.stringify(value, null, 2) + '\n',
  deserialize: (text: string): Record<string, unknown> => {
    if (text.trim() === '') return {}
    const value: unknown = JSON.parse(text)
    if (typeof value !== 'object' || value === null || Array.isArray(value)) throw new NotAnObjectError('not an object')
    return value as Record<string, unknown>
  }
}

/** Turns what electron-store throws on a bad file into the core's ConfigError, naming the file. */
export function settingsReadError(error: unknown, path: string): Error {
  if (error instanceof ConfigError) return error
  if (error instanceof NotAnObjectError) return new ConfigError(`${path} must hold a JSON object at the top level. Cairn has not changed it.`)
  if (error instanceof SyntaxError) {
    return new ConfigError(`${path} is not valid JSON (${error.message}). Fix the file or move it away; Cairn has not changed it.`)
  }
  return error instanceof Error ? error : new Error(String(error))
}

/**
 * The app's settings: electron-store over the data home's `config.json` (the same file the CLI
 * edits), behind the core's SettingsStore. Reads are validated with the zod schema (defaults filled,
 * unknown keys kept); updates deep-merge under the same lock the CLI takes. A file that turns bad
 * while the app runs is never overwritten: the last good settings stay in use and the problem is
 * reported until the file is fixed.
 */
export class ElectronSettings implements SettingsStore {
  private cached: CairnConfig | null = null
  private cachedSignature = ''
  private lastNotified: CairnConfig
  private reportedProblem: string | null = null
  private writing = false
  private readonly listeners = new Set<(config: CairnConfig) => void>()
  private readonly problemListeners = new Set<(message: string) => void>()
  private readonly onFileChange = (): void => this.fileChanged()

  /** Throws a ConfigError when the file is malformed (the caller tells the user and quits). */
  constructor(private readonly backend: SettingsBackend) {
    this.lastNotified = this.get()
    backend.events.addEventListener('change', this.onFileChange)
  }

  get path(): string {
    return this.backend.path
  }

  get(): CairnConfig {
    const signature = this.signature()
    if (this.cached && signature === this.cachedSignature) return this.cached
    try {
      const config = parseConfig(this.readRaw(), this.path)
      this.cached = config
      this.cachedSignature = signature
      this.reportedProblem = null
      return config
    } catch (error) {
      if (!this.cached) throw error
      this.cachedSignature = signature
      this.report((error as Error).message)
      return this.cached
    }
  }

  async update(patch: ConfigPatch): Promise<CairnConfig> {
    return withLock(
      this.path,
      async () => {
        const merged = deepMerge(this.readRaw(), patch as Record<string, unknown>)
        const config = parseConfig(merged, this.path)
        this.writing = true
        try {
          this.backend.store = merged
        } finally {
          this.writing = false
        }
        this.cached = config
        this.cachedSignature = this.signature()
        this.lastNotified = config
        this.reportedProblem = null
        return config
      },
      { lockfilePath: join(dirname(this.path), '.locks', 'config.lock') }
    )
  }

  /** Settings changed by someone else (the CLI, an editor). Our own updates are announced by their caller. */
  onChange(listener: (config: CairnConfig) => void): () => void {
    this.listeners.add(listener)
    return () => this.listeners.delete(listener)
  }

  /** The file became unusable while the app runs (once per bad version of the file). */
  onProblem(listener: (message: string) => void): () => void {
    this.problemListeners.add(listener)
    return () => this.problemListeners.delete(listener)
  }

  close(): void {
    this.backend.events.removeEventListener('change', this.onFileChange)
    this.backend._closeWatcher()
  }

  private readRaw(): Record<string, unknown> {
    try {
      return this.backend.store
    } catch (error) {
      throw settingsReadError(error, this.path)
    }
  }

  private fileChanged(): void {
    if (this.writing) return
    const config = this.get()
    if (isDeepStrictEqual(config, this.lastNotified)) return
    this.lastNotified = config
    for (const listener of this.listeners) safely(() => listener(config))
  }

  private report(message: string): void {
    if (this.reportedProblem === message) return
    this.reportedProblem = message
    for (const listener of this.problemListeners) safely(() => listener(message))
  }

  /** Cheap change detection: atomic writes replace the file, so the inode changes with every write. */
  private signature(): string {
    try {
      const stats = statSync(this.path)
      return `${stats.ino}:${stats.size}:${stats.mtimeMs}:${stats.ctimeMs}`
    } catch {
      return 'missing'
    }
  }
}

function safely(run: () => void): void {
  try {
    run()
  } catch (error) {
    console.error('cairn: settings listener failed:', error)
  }
}

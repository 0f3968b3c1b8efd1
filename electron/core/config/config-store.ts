import { existsSync, readFileSync, statSync } from 'node:fs'
import { join, dirname } from 'node:path'
import { z } from 'zod'
import { configSchema, type CairnConfig, type ConfigPatch } from '../../../shared/config'
import { writeFileAtomicText } from '../fs/atomic'
import { withLock } from '../fs/lock'

/** The settings file could not be used. The file is left exactly as it was. */
export class ConfigError extends Error {
  constructor(message: string) {
    super(message)
    this.name = 'ConfigError'
  }
}

/** Reads and writes `config.json`. The desktop app puts electron-store over the same file; this is the Node side. */
export interface SettingsStore {
  get(): CairnConfig
  update(patch: ConfigPatch): Promise<CairnConfig>
}

export class ConfigStore implements SettingsStore {
  private cached: CairnConfig | null = null
  /** mtime and size of the file when it was last read: another process's edit changes them. */
  private stamp = ''
  /** Why the latest edit on disk is not in effect (it is malformed); null when it is. */
  problem: string | null = null

  constructor(readonly path: string) {}

  /**
   * Defaults when the file is missing; a clear {@link ConfigError} when it is malformed (never reset).
   * Picks up edits made by other processes (the app, a CLI). A malformed edit made while this process
   * runs keeps the last good settings in effect and is reported in {@link problem}.
   */
  get(): CairnConfig {
    const stamp = this.fileStamp()
    if (this.cached && stamp === this.stamp) return this.cached
    try {
      this.cached = parseConfig(this.readRaw(), this.path)
      this.problem = null
    } catch (error) {
      if (!this.cached || !(error instanceof ConfigError)) throw error
      if (this.problem !== error.message) console.error(`cairn: ${error.message}\nKeeping the settings that were in effect.`)
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

  private fileStamp(): string {
    try {
      const stat = statSync(this.path)
      return `${stat.mtimeMs}:${stat.size}`
    } catch {
      return 'missing'
    }
  }

  /** Deep-merges `patch` into the file under a lock, keeping keys this version does not know. */
  async update(patch: ConfigPatch): Promise<CairnConfig> {
    return withLock(this.path, async () => {
      const raw = this.readRaw()
      const merged = deepMerge(raw, patch as Record<string, unknown>)
      const parsed = parseConfig(merged, this.path)
      await writeFileAtomicText(this.path, JSON.stringify(merged, null, 2) + '\n')
      this.cached = parsed
      this.stamp = this.fileStamp()
      this.problem = null
      return parsed
    }, { lockfilePath: join(dirname(this.path), '.locks', 'config.lock') })
  }

  private readRaw(): Record<string, unknown> {
    if (!existsSync(this.path)) return {}
    const text = readFileSync(this.path, 'utf8')
    if (text.trim() === '') return {}
    let value: unknown
    try {
      value = JSON.parse(text)
    } catch (error) {
      throw new ConfigError(
        `${this.path} is not valid JSON (${(error as Error).message}). Fix the file or move it away; Cairn has not changed it.`
      )
    }
    if (!isPlainObject(value)) {
      throw new ConfigError(`${this.path} must hold a JSON object at the top level. Cairn has not changed it.`)
    }
    return value
  }
}

export function parseConfig(raw: unknown, source = 'config.json'): CairnConfig {
  const result = configSchema.safeParse(raw)
  if (result.success) return result.data
  throw new ConfigError(`${source} has invalid settings:\n${formatIssues(result.error)}\nCairn has not changed the file.`)
}

function formatIssues(error: z.ZodError): string {
  return error.issues.map((issue) => `  - ${issue.path.join('.') || '(root)'}: ${issue.message}`).join('\n')
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

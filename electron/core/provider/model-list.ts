import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { writeFileAtomicText } from '../fs/atomic'
import { ChatProvider } from './provider'
import { ProviderError, type ProviderErrorCode } from './provider-errors'
import type { ProviderSettings } from './provider-settings'

/** The models a provider lists, as last fetched (or as cached from an earlier fetch when this one failed). */
export interface ModelList {
  /** The provider address the list belongs to. */
  baseURL: string
  models: string[]
  /** When the list was fetched (ms); null when it never was. */
  fetchedAt: number | null
  /** Why the last fetch failed (the cached list, if any, is still given); null when it did not. */
  error: ProviderErrorCode | null
}

interface CacheEntry {
  models: string[]
  fetchedAt: number
}

/** `<home>/cache/models.json`: one list per provider address, so switching back to a provider finds its list. */
export function modelCacheFile(homeRoot: string): string {
  return join(homeRoot, 'cache', 'models.json')
}

/**
 * The provider's model list, cached in the data home so the model switcher opens at once and across
 * restarts. A list is fetched when there is none for the current address yet (a changed base URL) or
 * when asked to refresh; a failed fetch keeps the cached list and says why. A provider that lists no
 * models gives an empty list: the user types the name.
 */
export class ModelListCache {
  constructor(
    private readonly file: string,
    private readonly fetchModels: (settings: ProviderSettings, signal: AbortSignal) => Promise<string[]> = (settings, signal) =>
      new ChatProvider({ ...settings, maxRetries: 0 }).listModels(signal),
    private readonly now: () => number = Date.now
  ) {}

  /** The cached list for this address, without asking the provider. */
  cached(baseURL: string): ModelList | null {
    const entry = this.readAll()[baseURL]
    return entry ? { baseURL, models: entry.models, fetchedAt: entry.fetchedAt, error: null } : null
  }

  async list(settings: ProviderSettings, options: { refresh?: boolean; timeoutMs?: number } = {}): Promise<ModelList> {
    const { baseURL } = settings
    const cached = this.cached(baseURL)
    if (cached && !options.refresh) return cached
    try {
      const models = await this.fetchModels(settings, AbortSignal.timeout(options.timeoutMs ?? 10_000))
      const fetchedAt = this.now()
      const all = this.readAll()
      all[baseURL] = { models, fetchedAt }
      await writeFileAtomicText(this.file, JSON.stringify(all, null, 2) + '\n')
      return { baseURL, models, fetchedAt, error: null }
    } catch (error) {
      const code: ProviderErrorCode = error instanceof ProviderError ? error.code : 'unreachable'
      return { baseURL, models: cached?.models ?? [], fetchedAt: cached?.fetchedAt ?? null, error: code }
    }
  }

  /** A damaged or hand-edited cache file is only a cache: it reads as empty and is written again on the next fetch. */
  private readAll(): Record<string, CacheEntry> {
    let parsed: unknown
    try {
      parsed = JSON.parse(readFileSync(this.file, 'utf8'))
    } catch {
      return {}
    }
    if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed)) return {}
    const entries: Record<string, CacheEntry> = {}
    for (const [url, value] of Object.entries(parsed as Record<string, unknown>)) {
      const entry = value as Partial<CacheEntry> | null
      if (!entry || !Array.isArray(entry.models) || typeof entry.fetchedAt !== 'number') continue
      entries[url] = { models: entry.models.filter((m): m is string => typeof m === 'string'), fetchedAt: entry.fetchedAt }
    }
    return entries
  }
}

import { isErrorKey, type ErrorKey, type ErrorParamsByKey } from './error-keys'
import { coreEnglish } from './i18n/core-english'

/** Figures that go with a key: strings and numbers, as every face and transport carries them. */
type Figures = Record<string, string | number>

/**
 * A failure from the core that a person reads, carried as its key and figures (shared/error-keys.ts);
 * the message is the key's English, for logs. Domain errors (BackupError, SyncError, ConfigError…)
 * extend it, and every face words it: the router puts key and params in the envelope, the CLI words
 * it in the data home's language.
 */
export class KeyedError<K extends ErrorKey = ErrorKey> extends Error {
  readonly params: Figures
  constructor(
    readonly key: K,
    params: ErrorParamsByKey[K],
    options?: ErrorOptions
  ) {
    super(coreEnglish(`error.${key}`, params as Figures), options)
    this.name = 'KeyedError'
    this.params = params as Figures
  }
}

/** The key and figures a caught error carries (a KeyedError, a VersionError…), or null for an error that only has a message. */
export function errorWordsOf(error: unknown): { key: ErrorKey; params: Figures } | null {
  if (!error || typeof error !== 'object') return null
  const { key, params } = error as { key?: unknown; params?: unknown }
  if (!isErrorKey(key)) return null
  return { key, params: params && typeof params === 'object' ? (params as Figures) : {} }
}

import type { ErrorKey, ErrorParamsByKey } from '../../../shared/error-keys'
import { coreEnglish } from '../../../shared/i18n/core-english'

/**
 * A revert or restore refused for a reason a person reads: its key and figures for the faces to word
 * in the user's language, and `error`, the key's English, for logs and --json.
 */
export function refusal<K extends ErrorKey>(key: K, params: ErrorParamsByKey[K]) {
  const figures = params as Record<string, string | number>
  return { ok: false as const, key, params: figures, error: coreEnglish(`error.${key}`, figures) }
}

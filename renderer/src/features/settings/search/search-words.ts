import type { Translate } from '../../../../../shared/i18n'
import type { EmbeddingTest, MeaningInfo, WordIndexInfo } from '../../../../../shared/ipc/contract-search'

/** A count as the user's locale writes it (12,000 / 12,000). */
export type FormatCount = (value: number) => string

/** What the word index line says, and how far its progress bar is (null: no bar). */
export function wordIndexLine(words: WordIndexInfo, t: Translate, count: FormatCount): { text: string; ratio: number | null } {
  if (!words.backlog) return { text: t('search.words.ready'), ratio: null }
  const { done, total } = words.backlog
  const params = { done: count(done), total: count(total) }
  return { text: t(words.running ? 'search.words.indexing' : 'search.words.waiting', params), ratio: total > 0 ? done / total : 0 }
}

/** The state of search by meaning in one or two sentences, and its progress bar while a counted fill runs. */
export function meaningLine(meaning: MeaningInfo, t: Translate, count: FormatCount): { text: string; ratio: number | null } {
  const model = meaning.settings.model
  switch (meaning.state) {
    case 'off':
      return { text: t('search.meaning.off'), ratio: null }
    case 'unavailable':
      return { text: t(`search.meaning.unavailable.${meaning.unavailable?.code ?? 'load_failed'}`, { detail: meaning.unavailable?.detail ?? '' }), ratio: null }
    default:
      break
  }
  const progress = meaning.progress
  if (meaning.filling) {
    if (!progress) return { text: t('search.meaning.fillingUncounted', { model }), ratio: null }
    return { text: t('search.meaning.filling', { model, done: count(progress.done), total: count(progress.total) }), ratio: progress.total > 0 ? progress.done / progress.total : 0 }
  }
  const index = meaning.index
  const parts = [index ? t('search.meaning.ready', { embedded: count(index.embedded), model: index.model, dimensions: index.dimensions }) : t('search.meaning.empty', { model })]
  if (progress && progress.done < progress.total) parts.push(t('search.meaning.counted', { done: count(progress.done), total: count(progress.total) }))
  if (index && index.skipped > 0) parts.push(t('search.meaning.skipped', { count: index.skipped }))
  return { text: parts.join(' '), ratio: null }
}

/** The last fill's failure in the user's words, by its code. */
export function meaningErrorText(meaning: MeaningInfo, t: Translate): string | null {
  const error = meaning.lastError
  if (!error) return null
  const reason = t(`search.meaning.error.${error.code}`, { endpoint: meaning.endpoint, model: meaning.settings.model, status: error.status ?? '?', message: error.message })
  // What happens next, for the background fill only (a Test's result says just what went wrong).
  const next = RETRIED.has(error.code) ? t('search.meaning.retryLater') : USER_FIXES.has(error.code) ? t('search.meaning.fixThenFill') : null
  if (!next) return reason
  // Chinese sentences follow each other without a space.
  return /[。！？]$/.test(reason) ? `${reason}${next}` : `${reason} ${next}`
}

/** Failures the fill retries by itself at its next check (app/semantic-filling.ts), and ones only a change of settings fixes. */
const RETRIED = new Set(['unreachable', 'timeout', 'rate_limited', 'server', 'stream_cut', 'database'])
const USER_FIXES = new Set(['auth', 'model_not_found'])

/** The most dimensions `search.embeddingDimensions` takes (shared/config.ts). */
const MAX_DIMENSIONS = 8192

/** Dimensions as typed: a whole number from 0 to {@link MAX_DIMENSIONS} (empty reads as 0), else null. */
export function parseDimensions(typed: string): number | null {
  const trimmed = typed.trim()
  if (!trimmed) return 0
  if (!/^\d+$/.test(trimmed)) return null
  const value = Number(trimmed)
  return value <= MAX_DIMENSIONS ? value : null
}

/** What "Test" found, in the user's words: the failure by its code, as the fill's are worded. */
export function embeddingTestText(test: EmbeddingTest | { ok: false; code: 'request_failed'; message: string }, t: Translate): string {
  if (test.ok) return t('search.meaning.testOk', { model: test.model, endpoint: test.endpoint, dimensions: test.dimensions })
  if (test.code === 'request_failed') return t('search.meaning.testFailed', { message: test.message })
  return t(`search.meaning.error.${test.code}`, { endpoint: test.endpoint, model: test.model, status: test.status ?? '?', message: test.message })
}

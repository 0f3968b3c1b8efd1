import type { ErrorKey, ErrorParamsByKey } from '../../shared/error-keys'
import { translate, translator, type Language } from '../../shared/i18n'
import { revertRefusalDetail, type RevertRefusal } from '../../shared/i18n/describe'
import { errorWordsOf } from '../../shared/keyed-error'
import { CliFailure } from './io'

/**
 * A failure worded by its key (shared/error-keys.ts) in the data home's language when printed, and
 * the command that lists what does exist. Apart from io.ts so `cairn --help` loads no dictionaries.
 */
export function wordedFailure<K extends ErrorKey>(key: K, params: ErrorParamsByKey[K], listWith?: string): CliFailure {
  const words = (language: Language) => {
    const failure = translate(language, `error.${key}`, params)
    return listWith ? translate(language, 'error.withHint', { failure, hint: translate(language, 'error.hint.listWith', { command: listWith }) }) : failure
  }
  return new CliFailure(words('en'), words)
}

/** A domain error the user must see: worded by its key when it carries one (a KeyedError), else its message as it is. */
export function keyedFailure(error: Error, listWith?: string): CliFailure {
  const words = errorWordsOf(error)
  return words ? wordedFailure(words.key, words.params as never, listWith) : new CliFailure(error.message)
}

/** A refusal result's words in `language`: by its key when it carries one, else its English as it is (as the app words it). */
export function refusalWords(language: Language, refusal: RevertRefusal): string {
  return revertRefusalDetail(refusal, translator(language)) ?? refusal.error
}

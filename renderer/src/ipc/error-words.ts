import { translator, type Language, type Translate } from '../../../shared/i18n'
import { describeFailure, type FailureLike } from '../../../shared/i18n/describe-errors'
import { IpcRequestError } from './client'

// The stores word errors without a translate function of their own: they use the window's language,
// registered once by createAppState (each window is its own page, so one per page).
let windowLanguage: () => Language = () => 'en'

/** Which language errors are worded in where no translate function is passed (the stores). */
export function wordErrorsIn(language: () => Language): void {
  windowLanguage = language
}

/**
 * What any caught error says, in the user's language: a request's error by its key or code (see
 * shared/i18n/describe-errors.ts); anything unexpected still shows its own message.
 */
export function describeError(error: unknown, t: Translate = translator(windowLanguage())): string {
  return describeFailure(failureOf(error), t)
}

/** A caught error as data a face can word later (a request's code, key and params; another error's message). */
export function failureOf(error: unknown): FailureLike {
  if (error instanceof IpcRequestError) return { code: error.code, message: error.message, params: error.params, key: error.key }
  if (error instanceof Error) return { code: 'INTERNAL', message: error.message }
  return { code: 'INTERNAL', message: String(error) }
}

import { isErrorKey, type ErrorKey } from '../error-keys'
import type { IpcErrorParams } from '../ipc/define'
import { describeTurnError } from './describe'
import type { Translate } from './index'

/** A failure as any face holds it: a request's error, a turn's `error` event, or what a transport made of a lost answer. */
export interface FailureLike {
  code: string
  message: string
  params?: IpcErrorParams | null
  key?: string | null
}

/** The words of an error key, in the user's language. */
export function describeErrorKey(key: ErrorKey, params: IpcErrorParams | null | undefined, t: Translate): string {
  return t(`error.${key}`, params ?? undefined)
}

/**
 * Any failure in the user's language: worded by its key when it has one, by its code where a code
 * says enough (a provider problem, an attachment, a folder, a refused version); otherwise the message
 * as it came (an unexpected error still says what happened), or a plain "something went wrong".
 */
export function describeFailure(failure: FailureLike, t: Translate): string {
  if (isErrorKey(failure.key)) return describeErrorKey(failure.key, failure.params, t)
  const text = describeTurnError(failure, t).text.trim()
  return text || t('error.unknown', { message: failure.code })
}

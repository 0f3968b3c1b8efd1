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

/**
 * Any failure in the user's language (see describeTurnError): by its code where a code says enough
 * (a provider problem, a refused version, an attachment, a folder), else by its key; otherwise the message
 * as it came (an unexpected error still says what happened), or a plain "something went wrong".
 */
export function describeFailure(failure: FailureLike, t: Translate): string {
  const text = describeTurnError(failure, t).text.trim()
  return text || t('error.unknown', { message: failure.code })
}

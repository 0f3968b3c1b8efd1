import type { IpcErrorParams } from '../ipc/define'
import type { MessageKey, Translate } from './index'

/** Codes whose words name the model and the provider's address, when the failure carries them. */
const namedCodes = new Set(['model_not_found', 'auth', 'unreachable', 'images_unsupported'])

/**
 * A provider failure that carries its specifics, worded with them (issue 29, part A): "The provider at
 * http://… has no model "x". Choose a model it lists in Settings." `causeOnly`: without the app's action
 * (the CLI adds its own fix line). Null: worded by its code alone.
 */
export function describeNamedTurnError(error: { code: string; params?: IpcErrorParams | null }, t: Translate, options: { causeOnly?: boolean } = {}): string | null {
  const baseURL = error.params?.baseURL
  if (!namedCodes.has(error.code) || typeof baseURL !== 'string' || !baseURL) return null
  const key = options.causeOnly ? `turnFailure.cause.${error.code}` : `turnFailure.${error.code}`
  return t(key as MessageKey, { baseURL, model: String(error.params?.model ?? '') })
}

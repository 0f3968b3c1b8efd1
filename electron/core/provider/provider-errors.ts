import {
  APIConnectionError,
  APIConnectionTimeoutError,
  APIError,
  APIUserAbortError
} from 'openai'
import type { connectionFailureCodes } from '../../../shared/ipc/domain'

/** The contract lists the codes, so a connection test can report any of them to the renderer. */
export type ProviderErrorCode = (typeof connectionFailureCodes)[number]

/** A provider failure with a message meant for the user, and whether trying again may help. */
export class ProviderError extends Error {
  constructor(
    readonly code: ProviderErrorCode,
    message: string,
    readonly retryable: boolean,
    readonly status?: number,
    /** Milliseconds the provider asked us to wait (Retry-After). */
    readonly retryAfterMs?: number,
    /** What the faces name in their own words: the model asked for and the provider's address. */
    readonly params?: ProviderErrorParams
  ) {
    super(message)
    this.name = 'ProviderError'
  }
}

/** Thrown by the stream reader when the connection ends before the provider said it was done. */
export class StreamCutError extends Error {
  constructor() {
    super('stream ended early')
  }
}

/** The specifics a failure is worded with in every face (the app's notice, the CLI's line). */
export interface ProviderErrorParams {
  model: string
  baseURL: string
}

/** What the failed request carried, where the classification depends on it. */
export interface FailedRequest {
  /** The messages held an image part: only then can a refusal be about images. */
  images?: boolean
}

export function toProviderError(error: unknown, baseURL: string, model: string, timeoutMs: number, request: FailedRequest = {}): ProviderError {
  if (error instanceof ProviderError) return error
  if (error instanceof APIUserAbortError || (error as Error)?.name === 'AbortError') {
    return new ProviderError('cancelled', 'Cancelled.', false)
  }
  if (error instanceof APIConnectionTimeoutError) {
    // words-ok: the detail under the code, which every face words (turnError.*, setup.problem.*); logs keep it
    return new ProviderError('timeout', `No response from ${baseURL} within ${Math.round(timeoutMs / 1000)} s.`, true)
  }
  if (error instanceof APIConnectionError) {
    const cause = describeCause(error)
    // words-ok: the detail under the code, which every face words (turnError.*, setup.problem.*); logs keep it
    return new ProviderError('unreachable', `Cannot reach ${baseURL}${cause ? ` (${cause})` : ''}. Is the server running and the URL right?`, true, undefined, undefined, { model, baseURL })
  }
  // undici reports a body cut mid-way as a bare `TypeError: terminated`, not an APIError.
  if (error instanceof StreamCutError || (error instanceof TypeError && /terminated|socket/i.test(error.message))) {
    // words-ok: the detail under the code, which every face words (turnError.*, setup.problem.*); logs keep it
    return new ProviderError('stream_cut', `The connection to ${baseURL} dropped in the middle of the answer.`, true)
  }
  if (error instanceof APIError && typeof error.status === 'number') {
    const detail = providerDetail(error)
    const status = error.status
    if (status === 401 || status === 403) {
      // words-ok: the detail under the code, which every face words (turnError.*, setup.problem.*); logs keep it
      return new ProviderError('auth', `${baseURL} rejected the API key (${status}${detail}). Check the key in Settings or CAIRN_API_KEY.`, false, status, undefined, { model, baseURL })
    }
    // The provider's status and structured error decide first: a missing model is named as missing,
    // whatever words its name or the provider's text hold ("gpt-4-vision" lacking is not an image refusal).
    if (isModelMissing(error, status, detail, model)) {
      // words-ok: the detail under the code, which every face words (turnError.*, setup.problem.*); logs keep it
      return new ProviderError('model_not_found', `The model "${model}" was not found at ${baseURL} (${status}${detail}). Pick a model the provider lists.`, false, status, undefined, { model, baseURL })
    }
    // There is no standard way to ask a provider whether a model reads images: its refusal of a request that carried some says so.
    if (request.images && [400, 404, 415, 422].includes(status) && refusesImages(detail, model)) {
      // words-ok: the detail under the code, which every face words (turnError.*, setup.problem.*); logs keep it
      return new ProviderError('images_unsupported', `The model "${model}" at ${baseURL} does not take images (${status}${detail}). Choose a model that reads images, or send the message without them.`, false, status, undefined, { model, baseURL })
    }
    if (status === 404) {
      // words-ok: the detail under the code, which every face words (turnError.*, setup.problem.*); logs keep it
      return new ProviderError('model_not_found', `The model "${model}" was not found at ${baseURL} (404${detail}). Pick a model the provider lists.`, false, status, undefined, { model, baseURL })
    }
    if (status === 429) {
      // words-ok: the detail under the code, which every face words (turnError.*, setup.problem.*); logs keep it
      return new ProviderError('rate_limited', `${baseURL} is rate-limiting requests (429${detail}).`, true, status, retryAfterMs(error))
    }
    if (status >= 500 || status === 408 || status === 409) {
      // words-ok: the detail under the code, which every face words (turnError.*, setup.problem.*); logs keep it
      return new ProviderError('server', `${baseURL} had a server error (${status}${detail}).`, true, status, retryAfterMs(error))
    }
    // words-ok: the detail under the code, which every face words (turnError.*, setup.problem.*); logs keep it
    return new ProviderError('bad_request', `${baseURL} refused the request (${status}${detail}).`, false, status)
  }
  // words-ok: the detail under the code, which every face words (turnError.*, setup.problem.*); logs keep it
  return new ProviderError('bad_response', `Unexpected reply from ${baseURL}: ${(error as Error)?.message ?? String(error)}`, false)
}

/** Structured codes providers use for a model they do not have (OpenAI, OpenRouter, vLLM, LiteLLM, Ollama). */
const MISSING_MODEL_CODES = new Set(['model_not_found', 'model_not_available', 'invalid_model', 'unknown_model', 'model_does_not_exist'])

/**
 * The provider says it lacks the model: by its structured error code, or a 404 whose words say so
 * (or say nothing else). A 404 about images that names no missing model is left to the image check.
 */
function isModelMissing(error: APIError, status: number, detail: string, model: string): boolean {
  const body = error.error as { code?: unknown; type?: unknown } | undefined
  const codes = [error.code, body?.code, body?.type].filter((code): code is string => typeof code === 'string')
  if (codes.some((code) => MISSING_MODEL_CODES.has(code.toLowerCase()))) return true
  if (status !== 404) return false
  if (/\b(not found|does not exist|doesn't exist|no such model|unknown model|not available|invalid model)\b/i.test(detail)) return true
  return !refusesImages(detail, model)
}

/** The provider's words are about images, once the model's own name (which may hold "vision") is taken out. */
function refusesImages(detail: string, model: string): boolean {
  const words = model ? detail.split(model).join(' ') : detail
  return /\b(image|images|image_url|vision|multimodal|multi-modal)\b/i.test(words)
}

function providerDetail(error: APIError): string {
  const body = error.error as { message?: unknown } | undefined
  const message = typeof body?.message === 'string' ? body.message : ''
  return message ? `: ${message.slice(0, 200)}` : ''
}

function describeCause(error: Error): string {
  let cause: unknown = error.cause
  while (cause && typeof cause === 'object') {
    const code = (cause as NodeJS.ErrnoException).code
    if (code === 'ECONNREFUSED') return 'connection refused'
    if (code === 'ENOTFOUND' || code === 'EAI_AGAIN') return 'host not found'
    if (code === 'ECONNRESET') return 'connection reset'
    cause = (cause as { cause?: unknown }).cause
  }
  return ''
}

/** Parses `retry-after-ms` / `retry-after` (seconds or an HTTP date). */
function retryAfterMs(error: APIError): number | undefined {
  const headers = error.headers
  if (!headers) return undefined
  const ms = Number(headers.get('retry-after-ms'))
  if (Number.isFinite(ms) && ms > 0) return ms
  const value = headers.get('retry-after')
  if (!value) return undefined
  const seconds = Number(value)
  if (Number.isFinite(seconds)) return Math.max(0, seconds * 1000)
  const date = Date.parse(value)
  return Number.isNaN(date) ? undefined : Math.max(0, date - Date.now())
}

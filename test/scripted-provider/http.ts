/**
 * Small HTTP helpers for the scripted server: reading bodies, JSON responses, OpenAI-style error
 * bodies (`{error: {message, type, param, code}}`, which the SDK turns into typed `APIError`s) and a
 * sleep that ends early when the client goes away, so delays never outlive their request.
 */
import type { IncomingMessage, ServerResponse } from 'node:http'

export interface OpenAiErrorBody {
  error: { message: string; type: string; param: string | null; code: string | null }
}

export function openAiError(message: string, type: string, code: string | null = null, param: string | null = null): OpenAiErrorBody {
  return { error: { message, type, param, code } }
}

/** The body OpenAI would send for `status`, marked as scripted so nobody mistakes it for a real outage. */
export function defaultErrorBody(status: number): OpenAiErrorBody {
  switch (status) {
    case 400:
      return openAiError('(scripted) Invalid request.', 'invalid_request_error')
    case 401:
      return openAiError('(scripted) Incorrect API key provided.', 'invalid_request_error', 'invalid_api_key')
    case 403:
      return openAiError('(scripted) You are not allowed to use this model.', 'invalid_request_error', 'unsupported_country_region_territory')
    case 404:
      return openAiError('(scripted) The model does not exist or you do not have access to it.', 'invalid_request_error', 'model_not_found')
    case 429:
      return openAiError('(scripted) Rate limit reached. Please try again in 1s.', 'requests', 'rate_limit_exceeded')
    case 500:
      return openAiError('(scripted) The server had an error while processing your request. Sorry about that!', 'server_error')
    case 503:
      return openAiError('(scripted) The engine is currently overloaded, please try again later.', 'server_error', 'overloaded')
    default:
      return openAiError(`(scripted) HTTP ${status} fault.`, status >= 500 ? 'server_error' : 'invalid_request_error')
  }
}

export async function readBody(req: IncomingMessage): Promise<string> {
  const parts: Buffer[] = []
  for await (const part of req) parts.push(part as Buffer)
  return Buffer.concat(parts).toString('utf8')
}

export function sendJson(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  const text = JSON.stringify(body)
  res.writeHead(status, {
    'content-type': 'application/json',
    'content-length': String(Buffer.byteLength(text)),
    ...headers
  })
  res.end(text)
}

/** Sends a fault body: strings verbatim as text/plain (to script non-JSON replies), anything else as JSON. */
export function sendFaultBody(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  if (typeof body !== 'string') return sendJson(res, status, body ?? defaultErrorBody(status), headers)
  res.writeHead(status, { 'content-type': 'text/plain; charset=utf-8', 'content-length': String(Buffer.byteLength(body)), ...headers })
  res.end(body)
}

/** Waits `ms`; resolves `false` at once if `signal` aborts first (the client disconnected). */
export function sleep(ms: number, signal: AbortSignal): Promise<boolean> {
  if (signal.aborted) return Promise.resolve(false)
  if (ms <= 0) return Promise.resolve(true)
  return new Promise((resolve) => {
    const timer = setTimeout(() => {
      signal.removeEventListener('abort', onAbort)
      resolve(true)
    }, ms)
    const onAbort = (): void => {
      clearTimeout(timer)
      resolve(false)
    }
    signal.addEventListener('abort', onAbort, { once: true })
  })
}

/** Resolves when `signal` aborts (used by the hang fault). */
export function untilAborted(signal: AbortSignal): Promise<void> {
  if (signal.aborted) return Promise.resolve()
  return new Promise((resolve) => signal.addEventListener('abort', () => resolve(), { once: true }))
}

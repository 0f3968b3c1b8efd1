import type { ProviderFailureCode } from '../../../shared/recall'

/** HTTP statuses an SDK error may carry, wherever it keeps them (openai, Honcho's and Mem0's errors, axios). */
function statusOf(error: unknown): number | null {
  if (!error || typeof error !== 'object') return null
  const value = error as { status?: unknown; statusCode?: unknown; response?: { status?: unknown } }
  const status = value.status ?? value.statusCode ?? value.response?.status
  return typeof status === 'number' ? status : null
}

const UNREACHABLE = /ECONNREFUSED|ENOTFOUND|EAI_AGAIN|ECONNRESET|ETIMEDOUT|fetch failed|Connection error|timed? ?out/i

/** A provider's failure as a code and the message it came with (the message is shown only for `failed`). */
export function providerFailureOf(error: unknown): { code: ProviderFailureCode; message: string } {
  const message = error instanceof Error ? error.message : String(error)
  const status = statusOf(error)
  if (status === 401 || status === 403 || /\b(401|403)\b|invalid api key|unauthori[sz]ed/i.test(message)) return { code: 'unauthorized', message }
  const cause = error instanceof Error && error.cause instanceof Error ? error.cause.message : ''
  if (UNREACHABLE.test(message) || UNREACHABLE.test(cause)) return { code: 'unreachable', message }
  return { code: 'failed', message }
}

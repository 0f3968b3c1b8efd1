import { ProviderError } from './provider-errors'

/** Exponential backoff with jitter for a retried provider request: ~0.5 s, 1 s, 2 s … capped at 8 s. */
export function backoffMs(attempt: number): number {
  const base = Math.min(8000, 500 * 2 ** (attempt - 1))
  return Math.round(base / 2 + Math.random() * (base / 2))
}

/** Waits `ms`, or rejects with a `cancelled` ProviderError as soon as `signal` aborts. */
export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(new ProviderError('cancelled', 'Cancelled.', false))
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort)
      resolve()
    }, ms)
    const onAbort = (): void => {
      clearTimeout(timer)
      reject(new ProviderError('cancelled', 'Cancelled.', false))
    }
    signal?.addEventListener('abort', onAbort, { once: true })
  })
}

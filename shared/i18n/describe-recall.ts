import type { MemoryProviderName, MemoryProviderStatus } from '../recall'
import type { Translate } from './index'

/** A failing provider's status line: why (the key refused, not reached, or its own message), and that turns go on without it. */
export function describeProviderFailure(provider: MemoryProviderName, failure: NonNullable<MemoryProviderStatus['lastError']>, t: Translate): string {
  const name = t(`recall.provider.${provider}`)
  const problem = t(`recall.failure.${failure.code}`, { provider: name, message: failure.message })
  return t('recall.settings.state.failing', { problem })
}

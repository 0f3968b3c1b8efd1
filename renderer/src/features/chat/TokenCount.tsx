import { useId } from 'react'
import { useChat, useLocale, useSessions, useT } from '../../app/context'

/**
 * The open conversation's running token count, as the provider reported it (summed by main after each
 * model call): compact in the header, the split in a tip shown on hover and on focus.
 */
export function TokenCount(): React.JSX.Element | null {
  const t = useT()
  const locale = useLocale()
  const tipId = useId()
  const sessionId = useChat((s) => s.sessionId)
  const usage = useSessions((s) => (sessionId ? s.list.find((item) => item.id === sessionId) : undefined))
  if (!usage || usage.inputTokens + usage.outputTokens === 0) return null
  const compact = new Intl.NumberFormat(locale, { notation: 'compact', maximumFractionDigits: 1 })
  const full = new Intl.NumberFormat(locale)
  const tip = t('tokens.tip', { input: full.format(usage.inputTokens), cached: full.format(usage.cachedTokens), output: full.format(usage.outputTokens) })
  return (
    <span className="token-count">
      <span className="token-count-badge" tabIndex={0} aria-describedby={tipId} data-testid="token-count">
        {t('tokens.short', { total: compact.format(usage.inputTokens + usage.outputTokens) })}
      </span>
      <span className="token-count-tip" role="tooltip" id={tipId}>
        {tip}
      </span>
    </span>
  )
}

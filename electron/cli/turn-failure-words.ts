import type { AgentEvent } from '../../shared/agent-events'
import { translator, type Language, type MessageKey } from '../../shared/i18n'
import { describeTurnError } from '../../shared/i18n/describe'
import { describeNamedTurnError } from '../../shared/i18n/describe-turn-failure'

/** Codes the user fixes in the environment or config.json: each has one line naming the exact setting. */
const fixable = new Set(['auth', 'model_not_found', 'unreachable', 'images_unsupported'])

/**
 * A failed turn as the CLI prints it, in the data home's language: what went wrong (with the model and
 * the provider's address where the failure names them), the provider's own words, and the one fix
 * (the environment variable or config.json key to set), as the app's notice links to Settings.
 */
export function turnFailureLines(event: Pick<Extract<AgentEvent, { type: 'error' }>, 'code' | 'message' | 'params'>, language: Language, configFile: string): string {
  // No provider set up: the core's words already name the setting and the variable (setup.fixElsewhere.*).
  if (event.code === 'not_configured') return `cairn: ${event.message}\n`
  const t = translator(language)
  const worded = describeTurnError(event, t)
  const lines = [`cairn: ${describeNamedTurnError(event, t, { causeOnly: true }) ?? worded.text}`]
  if (worded.detail && worded.detail !== worded.text) lines.push(`  ${worded.detail}`)
  if (fixable.has(event.code)) {
    lines.push(t(`turnFailure.cli.fix.${event.code}` as MessageKey, { baseURL: String(event.params?.baseURL ?? ''), configFile }))
  }
  return `${lines.join('\n')}\n`
}

import type { AgentEvent } from '../../shared/agent-events'
import { translator, type Language, type MessageKey } from '../../shared/i18n'
import { describeTurnError } from '../../shared/i18n/describe'

/** Codes the user fixes in the environment or config.json: each has one line naming the exact setting. */
const fixable = new Set(['auth', 'model_not_found', 'not_configured', 'unreachable', 'images_unsupported'])

/**
 * A failed turn as the CLI prints it, in the data home's language: what went wrong (with the model and
 * the provider's address where the failure names them), the provider's own words, and the one fix
 * (the environment variable or config.json key to set), as the app's notice links to Settings.
 */
export function turnFailureLines(event: Pick<Extract<AgentEvent, { type: 'error' }>, 'code' | 'message' | 'params'>, language: Language, configFile: string): string {
  const t = translator(language)
  const worded = describeTurnError(event, t)
  const lines = [`cairn: ${worded.text}`]
  if (worded.detail && worded.detail !== worded.text) lines.push(`  ${worded.detail}`)
  if (fixable.has(event.code)) {
    lines.push(t(`turnFailure.cli.fix.${event.code}` as MessageKey, { baseURL: String(event.params?.baseURL ?? ''), configFile }))
  }
  return `${lines.join('\n')}\n`
}

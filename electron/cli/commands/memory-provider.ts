import { translate } from '../../../shared/i18n'
import type { CairnCore } from '../../core/cairn'
import { formatTime, oneLine, printJson } from '../io'
import { providerLogOf } from '../../core/recall/create-provider'
import type { CliContext } from './types'

/**
 * `cairn memory provider`: the active memory provider, its settings, its last failure and what was last
 * sent to it (by the app or any CLI chat: the log in the data home). It connects to nothing.
 */
export async function showMemoryProvider(ctx: CliContext, core: CairnCore, json: boolean): Promise<number> {
  const { memory } = core.config.get()
  const { sent, lastError } = providerLogOf(core.paths.root, memory.provider).read()
  if (json) {
    printJson(ctx.io, { provider: memory.provider, settings: memory.provider === 'builtin' ? null : memory[memory.provider], lastError, sent })
    return 0
  }
  const language = core.config.get().ui.language
  const name = translate(language, `recall.provider.${memory.provider}`)
  ctx.io.out(`${translate(language, 'recall.settings.provider')}: ${name} (memory.provider = ${memory.provider})\n`)
  if (memory.provider !== 'builtin') ctx.io.out(`  ${JSON.stringify(memory[memory.provider])}\n`)
  else ctx.io.out(`  ${translate(language, 'recall.settings.builtinSendsNothing')}\n`)
  if (lastError) ctx.io.out(`  ${translate(language, 'recall.settings.state.failing', { provider: name, message: lastError.message })}\n`)
  ctx.io.out(`${translate(language, 'recall.settings.sent')}:\n`)
  if (!sent.length) ctx.io.out(`  ${translate(language, 'recall.settings.sentNothing')}\n`)
  for (const item of sent) ctx.io.out(`  ${formatTime(item.at)}  ${translate(language, `recall.settings.sent.${item.kind}`)}: ${oneLine(item.text, 90)}\n`)
  return 0
}

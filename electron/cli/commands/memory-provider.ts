import { translate, translator } from '../../../shared/i18n'
import { describeProviderFailure } from '../../../shared/i18n/describe-recall'
import type { CairnCore } from '../../core/cairn'
import { formatTime, oneLine, printJson } from '../io'
import { providerLogOf } from '../../core/recall/create-provider'
import { cliRecall } from '../recall'
import { UsageError } from '../io'
import type { CliContext } from './types'

/** `cairn memory provider [search <query> | forget <id>]`. */
export async function memoryProviderAction(ctx: CliContext, core: CairnCore, args: string[], json: boolean): Promise<number> {
  const [action, ...rest] = args
  if (action === undefined) return showMemoryProvider(ctx, core, json)
  if (action !== 'search' && action !== 'forget') throw new UsageError(`Unknown memory provider action "${action}". Use search or forget.`)
  const words = rest.join(' ').trim()
  if (!words) throw new UsageError(action === 'search' ? 'Give the words to search for: cairn memory provider search <query>.' : 'Give the id search printed: cairn memory provider forget <id>.')
  const recall = cliRecall(core, ctx.env, { for: 'search' })
  const started = Date.now()
  const { provider } = core.config.get().memory
  const t = translator(core.config.get().ui.language)
  try {
    if (action === 'forget') {
      const forgotten = (await recall?.forget(words)) ?? false
      if (json) printJson(ctx.io, { forgotten })
      else ctx.io.out(`${t(forgotten ? 'recall.cli.forgot' : 'recall.cli.cannotForget', { provider: t(`recall.provider.${provider}`), id: words })}\n`)
      return forgotten ? 0 : 1
    }
    const hits = (await recall?.search(words, 10)) ?? []
    if (json) printJson(ctx.io, hits)
    else for (const hit of hits) ctx.io.out(`[${hit.provider} #${hit.id}] ${oneLine(hit.text, 100)}\n`)
    const problem = recall?.status().lastError
    if (problem && problem.at >= started && !json) ctx.io.err(`cairn: ${describeProviderFailure(provider, problem, t)}\n`)
    return 0
  } finally {
    await recall?.shutdown()
  }
}

/**
 * `cairn memory provider`: the active memory provider, its settings, its last failure and what was last
 * sent to it (by the app or any CLI chat: the log in the data home). It connects to nothing.
 */
async function showMemoryProvider(ctx: CliContext, core: CairnCore, json: boolean): Promise<number> {
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
  if (lastError) ctx.io.out(`  ${describeProviderFailure(memory.provider, lastError, translator(language))}\n`)
  ctx.io.out(`${translate(language, 'recall.settings.sent')}:\n`)
  if (!sent.length) ctx.io.out(`  ${translate(language, 'recall.settings.sentNothing')}\n`)
  for (const item of sent) ctx.io.out(`  ${formatTime(item.at)}  ${translate(language, `recall.settings.sent.${item.kind}`)}: ${oneLine(item.text, 90)}\n`)
  return 0
}

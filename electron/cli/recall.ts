import { styleText } from 'node:util'
import type { RecalledItem } from '../../shared/recall'
import { translate } from '../../shared/i18n'
import type { CairnCore } from '../core/cairn'
import { memoryRecallFor } from '../core/recall/create-provider'
import type { MemoryRecall } from '../core/recall/memory-recall'
import { environmentKeys, ProviderAccess } from '../core/provider/provider-access'
import { cutEnd } from '../core/text/cut'
import { wantsTerminalMarkdown } from './terminal-markdown'
import type { CliIO } from './io'

/**
 * The memory provider (`memory.provider`) for this command's conversations (or, `search`, for a person
 * searching it), keys from the environment; null when it has nothing to work with.
 */
export function cliRecall(core: CairnCore, env: NodeJS.ProcessEnv, use: { for: 'conversations' | 'search' } = { for: 'conversations' }): MemoryRecall | null {
  const access = new ProviderAccess(() => core.config.get(), environmentKeys(env), env)
  return memoryRecallFor({ config: core.config.get(), access, dataHome: core.paths.root, archive: core.archive }, use)
}

/** The one dim line under a prompt that recalled memory: how many, from which provider, and the start of each. */
export function printRecalled(core: CairnCore, io: CliIO, env: NodeJS.ProcessEnv, items: readonly RecalledItem[]): void {
  if (!items.length) return
  const language = core.config.get().ui.language
  const words = translate(language, 'recall.cli.recalled', {
    count: items.length,
    items: items.map((item) => `[${item.provider} #${item.id}] ${cutEnd(item.text.replace(/\s+/g, ' '), 60)}`).join(' · ')
  })
  io.err(`${wantsTerminalMarkdown(io, env) ? styleText('dim', words) : words}\n`)
}

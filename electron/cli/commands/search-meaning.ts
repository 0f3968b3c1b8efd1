import type { CairnCore } from '../../core/cairn'
import { environmentKeys, ProviderAccess } from '../../core/provider/provider-access'
import { fillSemanticIndex, type FillOutcome } from '../../core/sessions/semantic-fill'
import type { CliContext } from './types'

/**
 * `cairn search --reindex-meaning`: embeds every message that has no vector yet for the configured
 * model, new ones first, with progress on stderr. Ctrl-C stops after the batch in flight; running it
 * again resumes there. The CLI embeds nothing on its own otherwise: this is the only way it spends
 * embedding requests.
 */
export async function reindexMeaning(ctx: CliContext, core: CairnCore): Promise<number> {
  const config = core.config.get()
  const embedder = new ProviderAccess(() => config, environmentKeys(ctx.env), ctx.env).embedder()
  if (!embedder) {
    ctx.io.err('Search by meaning is off. Set search.embeddingModel in config.json (e.g. text-embedding-3-small, or nomic-embed-text on Ollama) first.\n')
    return 1
  }
  const stop = new AbortController()
  const onSigint = (): void => stop.abort()
  process.once('SIGINT', onSigint)
  let outcome: FillOutcome
  try {
    ctx.io.err(`Embedding messages with ${embedder.settings.model} at ${embedder.settings.baseURL}…\n`)
    outcome = await fillSemanticIndex(core.db, embedder, {
      signal: stop.signal,
      countProgress: true,
      onProgress: ({ done, total }) => ctx.io.err(ctx.io.isTTY ? `\r${done} of ${total} messages` : `${done} of ${total} messages\n`)
    })
  } finally {
    process.off('SIGINT', onSigint)
  }
  if (ctx.io.isTTY) ctx.io.err('\n')
  ctx.io.out(`${describeOutcome(outcome)}\n`)
  return outcome.status === 'done' || outcome.status === 'cancelled' ? 0 : 1
}

function describeOutcome(outcome: FillOutcome): string {
  if (outcome.status === 'unavailable') return outcome.reason
  const progress = outcome.progress ? ` ${outcome.progress.done} of ${outcome.progress.total} messages are searchable by meaning.` : ''
  const skipped = outcome.skipped > 0 ? ` ${outcome.skipped} the model refused were skipped.` : ''
  switch (outcome.status) {
    case 'done':
      return `Done: embedded ${outcome.embedded} messages.${skipped}${progress}`
    case 'cancelled':
    case 'paused':
      return `Stopped after embedding ${outcome.embedded} messages.${skipped}${progress} Run it again to go on.`
    case 'failed':
      return `Stopped: ${outcome.error.message} Embedded ${outcome.embedded} messages before that.${progress} Run it again to resume.`
  }
}

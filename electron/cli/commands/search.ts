import { environmentKeys, ProviderAccess } from '../../core/provider/provider-access'
import { searchByMeaning, searchSessions } from '../../core/sessions'
import { parseCommandArgs, parseLimit } from '../args'
import { formatTime, oneLine, printJson, UsageError } from '../io'
import { reindexMeaning } from './search-meaning'
import { reindexWords } from './search-words'
import type { CliCommand } from './types'

export const searchCommand: CliCommand = {
  usage: `Usage: cairn [--home DIR] search <query> [--json] [--limit N]
       cairn [--home DIR] search --reindex-meaning
       cairn [--home DIR] search --reindex-words

Finds past conversations. Ask in plain words ("how did we fix the docker build?"); no search syntax needed.
With search.embeddingModel set, conversations are also found by meaning.

--reindex-meaning   embed the messages not embedded yet (progress on stderr; Ctrl-C stops, running it
                    again goes on where it stopped)
--reindex-words     index by word the Chinese/Japanese messages written before Cairn kept their words
                    (the app does it when idle; until then they are found by longer phrases only;
                    progress on stderr, Ctrl-C stops, running it again goes on)
`,
  async run(ctx, args) {
    const { values, positionals } = parseCommandArgs(args, { json: { type: 'boolean' }, limit: { type: 'string' }, 'reindex-meaning': { type: 'boolean' }, 'reindex-words': { type: 'boolean' } })
    if (values['reindex-meaning']) return reindexMeaning(ctx, await ctx.core())
    if (values['reindex-words']) return reindexWords(ctx, await ctx.core())
    const query = positionals.join(' ').trim()
    if (!query) throw new UsageError('Give something to search for.')
    const core = await ctx.core()
    // By meaning too when search.embeddingModel is set (a failed embedding request leaves keyword results).
    const embedder = new ProviderAccess(() => core.config.get(), environmentKeys(ctx.env), ctx.env).embedder()
    const meaning = await searchByMeaning(core.db, embedder, query, 50).catch(() => [])
    const result = searchSessions(core.db, query, { limit: parseLimit(values.limit, 5, 10), includeCurrent: true, meaning })
    if (values.json) {
      printJson(ctx.io, result)
      return 0
    }
    if (result.sessions.length === 0) {
      ctx.io.out(`No past conversation matches "${query}".\n`)
      return 0
    }
    result.sessions.forEach((hit, i) => {
      const byMeaning = hit.foundBy === 'meaning' ? '  (found by meaning, not by your words)' : ''
      ctx.io.out(`${i + 1}. ${hit.title ? `"${oneLine(hit.title, 60)}"  ` : ''}session ${hit.sessionId}  ${formatTime(hit.startedAt)}${byMeaning}\n`)
      ctx.io.out(`   ${oneLine(hit.snippet, 160)}\n`)
    })
    return 0
  }
}

import type { IpcHandlers } from '../../../../shared/ipc/contract'
import type { EmbeddingTest, EmbeddingTestInput } from '../../../../shared/ipc/contract-search'
import { EmbeddingClient, resolveEmbeddingSettings } from '../../provider/embeddings'
import { ProviderError } from '../../provider/provider-errors'
import type { SettingsSlice } from './route-slices'

type SearchRoutes = 'search.status' | 'search.fillMeaning' | 'search.pauseMeaning' | 'search.testEmbedding'

/** What "Test" embeds: short, and plainly a test in a server's logs. */
const TEST_TEXT = 'Cairn embedding test'
const TEST_TIMEOUT_MS = 10_000

/** Settings → Search: the word index's backlog and search by meaning, with "Fill now" and "Pause" for the meaning backfill, and "Test" for its settings. */
export function searchHandlers(app: SettingsSlice): Pick<IpcHandlers, SearchRoutes> {
  const upkeep = app.searchUpkeep
  return {
    'search.status': async () => upkeep.watch(),
    // While search by meaning is off this fills nothing: the status it answers says it is off.
    'search.fillMeaning': async () => upkeep.fillMeaning(),
    'search.pauseMeaning': async () => upkeep.pauseMeaning(),
    'search.testEmbedding': async (input) => testEmbedding(app, input)
  }
}

async function testEmbedding(app: SettingsSlice, input: EmbeddingTestInput): Promise<EmbeddingTest> {
  const saved = app.core.config.get().search
  const search = {
    ...saved,
    embeddingModel: input?.model ?? saved.embeddingModel,
    embeddingBaseURL: (input?.baseURL ?? saved.embeddingBaseURL).trim().replace(/\/+$/, ''),
    embeddingDimensions: input?.dimensions ?? saved.embeddingDimensions
  }
  const resolved = resolveEmbeddingSettings(search, app.providerSettings(), embeddingKeyFor(app, search.embeddingBaseURL, saved.embeddingBaseURL, input?.apiKey), {})
  const model = search.embeddingModel.trim()
  // words-ok: faces word the test by its code; the message is only the detail under it.
  if (!resolved) return { ok: false, endpoint: '', model, code: 'not_configured', message: 'No embedding model is set.', status: null }
  const client = new EmbeddingClient({ ...resolved, maxRetries: 0, requestTimeoutMs: TEST_TIMEOUT_MS })
  try {
    const [vector] = await client.embed([TEST_TEXT], AbortSignal.timeout(TEST_TIMEOUT_MS))
    return { ok: true, endpoint: resolved.baseURL, model, dimensions: vector.length }
  } catch (error) {
    const failure = error instanceof ProviderError ? error : new ProviderError('unreachable', (error as Error).message, false)
    return { ok: false, endpoint: resolved.baseURL, model, code: failure.code, message: failure.message, status: failure.status ?? null }
  }
}

/**
 * The key a test sends: one typed for it, else the saved embedding key, but only to the server it was
 * saved for (a newly typed URL needs a newly typed key). The chat key is never among these: with no
 * server of its own the embedding settings fall back to the chat provider's own key.
 */
function embeddingKeyFor(app: SettingsSlice, testURL: string, savedURL: string, typed: string | undefined): string {
  if (typed?.trim()) return typed.trim()
  const sameServer = testURL === savedURL.trim().replace(/\/+$/, '') || (Boolean(testURL) && origin(testURL) !== null && origin(testURL) === origin(savedURL))
  // '' (not null): no fallback to CAIRN_EMBEDDING_API_KEY for a server it was not set for.
  return sameServer ? (app.provider.keys.apiKeyFor('embedding') ?? '') : ''
}

function origin(url: string): string | null {
  try {
    return new URL(url).origin
  } catch {
    return null
  }
}

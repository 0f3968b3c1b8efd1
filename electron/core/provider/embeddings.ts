import OpenAI from 'openai'
import type { CairnConfig } from '../../../shared/config'
import { cutEnd } from '../text/cut'
import { ProviderError, toProviderError } from './provider-errors'
import { providerProblem, resolveLearningProviderSettings, type ProviderSettings } from './provider-settings'
import { backoffMs, sleep } from './retry-wait'

/** Texts per `/v1/embeddings` request: OpenAI takes up to 2048, local servers are happier with fewer. */
export const EMBEDDING_BATCH = 64

/**
 * Characters of one text sent to the model. Embedding models read 512–8191 tokens; 6,000 characters
 * (about 1,500 tokens of English) fits the common local ones (nomic-embed-text, bge) and the start of
 * a message says what it is about.
 */
export const MAX_EMBED_CHARS = 6000

const MAX_RETRY_DELAY_MS = 60_000

/** Where vectors come from, and what identifies them: a change of model, endpoint or size means re-embedding. */
export interface EmbeddingSettings extends ProviderSettings {
  /** Dimensions to ask for; 0 = whatever the model returns. */
  dimensions: number
}

/**
 * The embedding provider: `search.embeddingModel` on `search.embeddingBaseURL`, the URL defaulting
 * to the chat provider's. Keys follow the learning provider's rule: the chat key only ever goes to the
 * chat provider's server; an endpoint of its own gets `ownKey`, the embedding key (else
 * `CAIRN_EMBEDDING_API_KEY`) or none, which is what Ollama and LM Studio expect. Null when off.
 */
export function resolveEmbeddingSettings(
  search: CairnConfig['search'],
  chat: ProviderSettings,
  ownKey?: string | null,
  env: NodeJS.ProcessEnv = process.env
): EmbeddingSettings | null {
  const model = search.embeddingModel.trim()
  if (!model) return null
  const resolved = resolveLearningProviderSettings(
    { model, baseURL: search.embeddingBaseURL },
    { chat, ownKey: ownKey ?? env.CAIRN_EMBEDDING_API_KEY ?? null, env: {} }
  )
  return { ...resolved, model, dimensions: search.embeddingDimensions }
}

/** Turns texts into vectors, the same length each. */
export interface Embedder {
  readonly settings: EmbeddingSettings
  embed(texts: string[], signal?: AbortSignal): Promise<Float32Array[]>
}

/**
 * An OpenAI-compatible `/v1/embeddings` client: batches of {@link EMBEDDING_BATCH}, texts cut to
 * {@link MAX_EMBED_CHARS}, 429/5xx/network failures retried with backoff (honouring Retry-After) up to
 * the provider's `maxRetries`, every failure a {@link ProviderError}.
 */
export class EmbeddingClient implements Embedder {
  private readonly client: OpenAI

  constructor(readonly settings: EmbeddingSettings) {
    this.client = new OpenAI({
      apiKey: settings.apiKey || 'unused',
      ...(settings.apiKey ? {} : { defaultHeaders: { Authorization: null } }),
      baseURL: settings.baseURL,
      maxRetries: 0,
      timeout: settings.requestTimeoutMs
    })
  }

  async embed(texts: string[], signal?: AbortSignal): Promise<Float32Array[]> {
    const problem = providerProblem(this.settings)
    if (problem) throw new ProviderError('not_configured', problem, false)
    const vectors: Float32Array[] = []
    for (let start = 0; start < texts.length; start += EMBEDDING_BATCH) {
      const batch = texts.slice(start, start + EMBEDDING_BATCH).map(embeddableText)
      vectors.push(...(await this.withRetries(() => this.embedOnce(batch, signal), signal)))
    }
    const size = vectors[0]?.length
    if (vectors.some((v) => v.length !== size)) throw this.badReply(`vectors of different sizes came back (${size} and ${vectors.find((v) => v.length !== size)!.length})`)
    return vectors
  }

  private async embedOnce(texts: string[], signal?: AbortSignal): Promise<Float32Array[]> {
    const reply = await this.client.embeddings.create(
      {
        model: this.settings.model,
        input: texts,
        // Floats, not the SDK's default base64: Ollama and some other servers ignore the base64 request.
        encoding_format: 'float',
        ...(this.settings.dimensions > 0 ? { dimensions: this.settings.dimensions } : {})
      },
      { signal }
    )
    const data = Array.isArray(reply?.data) ? reply.data : null
    if (!data || data.length !== texts.length) throw this.badReply(`asked for ${texts.length} vectors, got ${data?.length ?? 'none'}`)
    const ordered = [...data].sort((a, b) => a.index - b.index)
    return ordered.map((item) => {
      if (!Array.isArray(item.embedding) || item.embedding.length === 0 || !item.embedding.every(Number.isFinite)) throw this.badReply('a vector was empty or not numbers')
      if (this.settings.dimensions > 0 && item.embedding.length !== this.settings.dimensions) {
        throw this.badReply(`asked for ${this.settings.dimensions} dimensions, got ${item.embedding.length} (set search.embeddingDimensions to 0 for models that cannot shorten vectors)`)
      }
      return Float32Array.from(item.embedding)
    })
  }

  private async withRetries<T>(attempt: () => Promise<T>, signal?: AbortSignal): Promise<T> {
    for (let tries = 0; ; tries++) {
      try {
        return await attempt()
      } catch (raw) {
        const error = toProviderError(raw, this.settings.baseURL, this.settings.model, this.settings.requestTimeoutMs)
        if (error.code === 'cancelled' || signal?.aborted) throw new ProviderError('cancelled', 'Cancelled.', false)
        if (!error.retryable || tries >= this.settings.maxRetries) {
          throw tries > 0 ? new ProviderError(error.code, `${error.message} Gave up after ${tries + 1} attempts.`, false, error.status) : error
        }
        await sleep(Math.min(MAX_RETRY_DELAY_MS, error.retryAfterMs ?? backoffMs(tries + 1)), signal)
      }
    }
  }

  private badReply(what: string): ProviderError {
    // words-ok: the detail under the code, which every face words (turnError.*, setup.problem.*); logs keep it
    return new ProviderError('bad_response', `Unexpected embeddings reply from ${this.settings.baseURL} for "${this.settings.model}": ${what}.`, false)
  }
}

/** What is sent for one text: never empty (servers refuse ""), never longer than {@link MAX_EMBED_CHARS}. */
export function embeddableText(text: string): string {
  const trimmed = text.trim()
  return trimmed ? cutEnd(trimmed, MAX_EMBED_CHARS) : ' '
}


/** The embedder the settings ask for, or null when search by meaning is off (no model set). */
export function createEmbedder(search: CairnConfig['search'], chat: ProviderSettings, ownKey?: string | null, env: NodeJS.ProcessEnv = process.env): Embedder | null {
  const settings = resolveEmbeddingSettings(search, chat, ownKey, env)
  return settings ? new EmbeddingClient(settings) : null
}

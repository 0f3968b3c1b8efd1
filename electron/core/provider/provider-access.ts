import type { CairnConfig } from '../../../shared/config'
import { createEmbedder, type Embedder } from './embeddings'
import { resolveLearningProviderSettings, resolveProviderSettings, type ProviderSettings } from './provider-settings'

/**
 * Which key: the chat provider's, the one for `learning.baseURL` (reviews on their own endpoint), the one for
 * `search.embeddingBaseURL`, or the external memory provider's (`memory.provider`: Mem0's platform, Honcho).
 */
export type ApiKeyWhich = 'chat' | 'learning' | 'embedding' | 'memoryProvider'

/**
 * The provider keys one process holds, asked for at each use (a key saved in Settings applies to the
 * next call). Built once where a process is composed (the app from its secret store, the CLI from the
 * environment) and passed down, so no module below takes a key of its own.
 */
export interface ProviderKeys {
  apiKeyFor(which: ApiKeyWhich): string | null
}

/** The variables each key is read from when none is saved, first match wins (the CLI's only source). */
export const API_KEY_VARIABLES: Readonly<Record<ApiKeyWhich, readonly string[]>> = {
  chat: ['CAIRN_API_KEY', 'OPENAI_API_KEY'],
  learning: ['CAIRN_LEARNING_API_KEY'],
  embedding: ['CAIRN_EMBEDDING_API_KEY'],
  memoryProvider: ['CAIRN_MEMORY_PROVIDER_API_KEY']
}

/** The saved key (the app's secret store), else the environment's. */
export function providerKeys(saved: (which: ApiKeyWhich) => string | null, env: NodeJS.ProcessEnv = process.env): ProviderKeys {
  return {
    apiKeyFor: (which) => saved(which) ?? API_KEY_VARIABLES[which].map((name) => env[name]).find((value) => value !== undefined) ?? null
  }
}

/** Keys from the environment alone: the CLI, and any caller that has no secret store. */
export function environmentKeys(env: NodeJS.ProcessEnv = process.env): ProviderKeys {
  return providerKeys(() => null, env)
}

/**
 * How one process reaches the model: the chat, learning and embedding providers resolved from the
 * settings, the environment (`CAIRN_BASE_URL`, `CAIRN_MODEL`) and its {@link ProviderKeys}, afresh at
 * each call so a settings change applies at once.
 */
export class ProviderAccess {
  constructor(
    private readonly config: () => CairnConfig,
    readonly keys: ProviderKeys,
    private readonly env: NodeJS.ProcessEnv = process.env
  ) {}

  /** The chat provider, key included. */
  chat(): ProviderSettings {
    return resolveProviderSettings(this.config(), this.env, this.keys.apiKeyFor('chat'))
  }

  /** What reviews, curation, titles and summaries run on: `learning.model` / `learning.baseURL` when set, else the chat provider. */
  learning(): ProviderSettings {
    // The environment was read into the keys; it is not read again for them.
    return resolveLearningProviderSettings(this.config().learning, { chat: this.chat(), ownKey: this.keys.apiKeyFor('learning'), env: {} })
  }

  /** The embedder `search.embeddingModel` asks for, or null when search by meaning is off. */
  embedder(): Embedder | null {
    return createEmbedder(this.config().search, this.chat(), this.keys.apiKeyFor('embedding'), {})
  }
}

import { localPresets, presetBaseURLs, type CairnConfig, type ProviderPreset } from '../../../shared/config'
import { coreEnglish } from '../../../shared/i18n/core-english'
import { describeProviderProblemEverywhere } from '../../../shared/i18n/describe-provider'
import type { ProviderProblem } from '../../../shared/ipc/domain'

/** Everything needed to talk to one OpenAI-compatible endpoint. */
export interface ProviderSettings {
  preset: ProviderPreset
  baseURL: string
  model: string
  apiKey: string | null
  requestTimeoutMs: number
  maxRetries: number
}

/**
 * Resolves the provider from settings and the environment: `CAIRN_BASE_URL` and `CAIRN_MODEL`
 * override the config; the key comes from the caller (the app's encrypted store) or, in the CLI,
 * from `CAIRN_API_KEY` / `OPENAI_API_KEY`.
 */
export function resolveProviderSettings(
  config: CairnConfig,
  env: NodeJS.ProcessEnv = process.env,
  apiKey?: string | null
): ProviderSettings {
  const preset = config.provider.preset
  const baseURL = env.CAIRN_BASE_URL || config.provider.baseURL || presetBaseURLs[preset]
  return {
    preset,
    baseURL: baseURL.replace(/\/+$/, ''),
    model: env.CAIRN_MODEL || config.provider.model,
    apiKey: apiKey ?? env.CAIRN_API_KEY ?? env.OPENAI_API_KEY ?? null,
    requestTimeoutMs: config.provider.requestTimeoutMs,
    maxRetries: config.provider.maxRetries
  }
}

/** What a learning provider is resolved from besides the config: the chat provider it defaults to, and its own key. */
export interface LearningProviderSources {
  /** The chat provider as resolved for this process (config, environment, stored key). */
  chat: ProviderSettings
  /** The key saved for the endpoint of its own (`learning.baseURL`'s, or `search.embeddingBaseURL`'s for embeddings); else `CAIRN_LEARNING_API_KEY`. */
  ownKey?: string | null
  env?: NodeJS.ProcessEnv
}

/**
 * The provider reviews and curation run on: `learning.model` on
 * `learning.baseURL`, each defaulting to the chat provider's. The chat key goes only to the chat
 * provider's own server: an endpoint of its own gets the learning key (saved, or
 * `CAIRN_LEARNING_API_KEY`) or none; on the chat server a learning key, when set, still wins.
 */
export function resolveLearningProviderSettings(learning: Pick<CairnConfig['learning'], 'model' | 'baseURL'>, sources: LearningProviderSources): ProviderSettings {
  const { chat } = sources
  const env = sources.env ?? process.env
  const ownKey = sources.ownKey || env.CAIRN_LEARNING_API_KEY || null
  const ownURL = learning.baseURL.trim().replace(/\/+$/, '')
  const model = learning.model.trim() || chat.model
  if (!ownURL || sameOrigin(ownURL, chat.baseURL)) return { ...chat, baseURL: ownURL || chat.baseURL, model, apiKey: ownKey ?? chat.apiKey }
  return { ...chat, preset: 'custom', baseURL: ownURL, model, apiKey: ownKey }
}

function sameOrigin(a: string, b: string): boolean {
  try {
    return new URL(a).origin === new URL(b).origin
  } catch {
    return false
  }
}

/** Why the provider cannot be used yet, as data (the faces word it); null when it is ready. */
export function findProviderProblem(settings: ProviderSettings): ProviderProblem | null {
  const { preset, baseURL } = settings
  if (!baseURL) return { code: 'no_url', preset, baseURL }
  if (!settings.model) return { code: 'no_model', preset, baseURL }
  if (!settings.apiKey && !localPresets.has(preset) && !isLocalURL(baseURL)) return { code: 'no_key', preset, baseURL }
  return null
}

/** The problem in English, with every place it can be fixed: for logs, errors and the CLI (worded in shared/i18n). */
export function providerProblemText(problem: ProviderProblem): string {
  return describeProviderProblemEverywhere(problem, coreEnglish)
}

/** Why the provider cannot be used yet, in English words a user can act on; null when it is ready. */
export function providerProblem(settings: ProviderSettings): string | null {
  const problem = findProviderProblem(settings)
  return problem ? providerProblemText(problem) : null
}

export function isLocalURL(url: string): boolean {
  try {
    const host = new URL(url).hostname
    return host === 'localhost' || host === '127.0.0.1' || host === '::1' || host === '[::1]'
  } catch {
    return false
  }
}

import { localPresets, presetBaseURLs, type CairnConfig, type ProviderPreset } from '../../../shared/config'

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

/** Why the provider cannot be used yet, in words a user can act on; null when it is ready. */
export function providerProblem(settings: ProviderSettings): string | null {
  if (!settings.baseURL) {
    return 'No provider URL is set. Choose a preset or set provider.baseURL (or CAIRN_BASE_URL).'
  }
  if (!settings.model) {
    return 'No model is chosen. Pick one in Settings, set provider.model in config.json, or set CAIRN_MODEL.'
  }
  if (!settings.apiKey && !localPresets.has(settings.preset) && !isLocalURL(settings.baseURL)) {
    return `No API key for ${settings.baseURL}. Enter it in Settings, or set CAIRN_API_KEY for the CLI.`
  }
  return null
}

export function isLocalURL(url: string): boolean {
  try {
    const host = new URL(url).hostname
    return host === 'localhost' || host === '127.0.0.1' || host === '::1' || host === '[::1]'
  } catch {
    return false
  }
}

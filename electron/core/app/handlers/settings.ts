import type { IpcHandlers } from '../../../../shared/ipc/contract'
import { IpcError } from '../../../../shared/ipc/define'
import type { SettingsView } from '../../../../shared/ipc/domain'
import { presetBaseURLs, providerPresets, type ConfigPatch, type ProviderPreset } from '../../../../shared/config'
import { ChatProvider } from '../../provider/provider'
import { ProviderError } from '../../provider/provider-errors'
import { ConfigError } from '../../config/config-store'
import type { SettingsSlice } from './route-slices'

export function settingsHandlers(app: SettingsSlice): Pick<IpcHandlers, 'settings.get' | 'settings.update' | 'settings.setApiKey' | 'settings.testConnection' | 'settings.detectLocal' | 'settings.rememberSecrets'> {
  const keyView = (which: 'learning' | 'embedding' | 'memoryProvider'): NonNullable<SettingsView['learningKey']> => {
    const key = app.options.secrets.getApiKey(which)
    return { hasApiKey: Boolean(key), keyHint: key ? key.slice(-4) : null, keyStorage: key ? app.options.secrets.storage(which) : 'none' }
  }
  const view = (): SettingsView => {
    const key = app.options.secrets.getApiKey()
    return {
      config: app.core.config.get(),
      hasApiKey: Boolean(key),
      keyHint: key ? key.slice(-4) : null,
      keyStorage: key ? app.options.secrets.storage() : 'none',
      learningKey: keyView('learning'),
      embeddingKey: keyView('embedding'),
      memoryProviderKey: keyView('memoryProvider'),
      rememberSecrets: app.options.secrets.remembering?.()
    }
  }
  return {
    'settings.get': async () => view(),
    'settings.update': async ({ patch }) => {
      try {
        const config = await app.core.config.update(patch as ConfigPatch)
        app.emit('settings.changed', { config })
      } catch (error) {
        if (error instanceof ConfigError) throw IpcError.carrying('VALIDATION_FAILED', error)
        throw error
      }
      return view()
    },
    'settings.setApiKey': async ({ apiKey, which }) => {
      await app.options.secrets.setApiKey(apiKey?.trim() || null, which)
      app.emit('settings.changed', { config: app.core.config.get() })
      return view()
    },
    'settings.rememberSecrets': async ({ remember }) => {
      await app.options.secrets.setRemembering?.(remember)
      app.emit('settings.changed', { config: app.core.config.get() })
      return view()
    },
    'settings.testConnection': async (input) => {
      const current = app.providerSettings()
      const preset = (providerPresets as readonly string[]).includes(input.preset ?? '') ? (input.preset as ProviderPreset) : current.preset
      const baseURL = normaliseBaseURL(input.baseURL || (input.preset ? presetBaseURLs[preset] : current.baseURL))
      // The saved key goes only to the server it was saved for; a newly typed URL needs a newly typed key.
      const apiKey = input.apiKey || (sameOrigin(baseURL, current.baseURL) ? current.apiKey : null)
      const provider = new ChatProvider({ ...current, preset, baseURL, model: input.model ?? current.model, apiKey, maxRetries: 0, requestTimeoutMs: 10_000 })
      const model = input.model ?? current.model
      try {
        const models = await provider.listModels(AbortSignal.timeout(10_000))
        const known = !model || models.length === 0 || models.includes(model)
        return { ok: known, code: known ? 'connected' : 'model_missing', baseURL, models, model: model || null, status: null }
      } catch (error) {
        // The renderer words the failure; anything the provider client did not classify reads as unreachable.
        const code = error instanceof ProviderError ? error.code : 'unreachable'
        const status = error instanceof ProviderError ? (error.status ?? null) : null
        return { ok: false, code, baseURL, models: [], model: model || null, status }
      }
    },
    'settings.detectLocal': async () => {
      const [ollama, lmstudio] = await Promise.all([reachable(presetBaseURLs.ollama), reachable(presetBaseURLs.lmstudio)])
      return { ollama, lmstudio }
    }
  }
}

/** People paste the full endpoint; the SDK wants the base. */
export function normaliseBaseURL(url: string): string {
  return url.trim().replace(/\/+$/, '').replace(/\/chat\/completions$/, '').replace(/\/models$/, '')
}

function sameOrigin(a: string, b: string): boolean {
  try {
    return new URL(a).origin === new URL(b).origin
  } catch {
    return false
  }
}

async function reachable(baseURL: string): Promise<boolean> {
  try {
    const response = await fetch(`${baseURL}/models`, { signal: AbortSignal.timeout(800) })
    return response.ok
  } catch {
    return false
  }
}

import type { ProviderPreset } from '../../../../shared/config'
import type { KeyStorage } from '../../../../shared/ipc/domain'
import type { MessageKey } from '../../../../shared/i18n'

/**
 * Mirrors `presetBaseURLs`/`localPresets` in shared/config.ts (a test keeps them equal). Copied, not
 * imported, because that module builds zod schemas and the renderer bundle must not carry zod.
 */
export const presetURLs: Record<ProviderPreset, string> = {
  openai: 'https://api.openai.com/v1',
  openrouter: 'https://openrouter.ai/api/v1',
  ollama: 'http://127.0.0.1:11434/v1',
  lmstudio: 'http://127.0.0.1:1234/v1',
  custom: ''
}

export const localPresetList: ProviderPreset[] = ['ollama', 'lmstudio']

export const presetOrder: ProviderPreset[] = ['openai', 'openrouter', 'ollama', 'lmstudio', 'custom']

export const presetLabel: Record<ProviderPreset, MessageKey> = {
  openai: 'preset.openai',
  openrouter: 'preset.openrouter',
  ollama: 'preset.ollama',
  lmstudio: 'preset.lmstudio',
  custom: 'preset.custom'
}

export const keyStorageLabel: Record<KeyStorage, MessageKey> = {
  os: 'settings.key.storage.os',
  basic_text: 'settings.key.storage.basic_text',
  memory: 'settings.key.storage.memory',
  env: 'settings.key.storage.env',
  none: 'settings.key.storage.none',
  file: 'secrets.remembered'
}

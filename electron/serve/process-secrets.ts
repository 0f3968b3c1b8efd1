import type { KeyStorage } from '../../shared/ipc/domain'
import type { ApiKeyWhich, SecretStore } from '../core/app/app-context'

/**
 * Browser mode and tests: the key comes from CAIRN_API_KEY / OPENAI_API_KEY (the learning key from
 * CAIRN_LEARNING_API_KEY), or is entered in the UI and kept only in this process (never written to
 * disk in plain text; the desktop app encrypts it).
 */
export class ProcessSecretStore implements SecretStore {
  private readonly entered: Record<ApiKeyWhich, string | null> = { chat: null, learning: null }

  constructor(private readonly env: NodeJS.ProcessEnv = process.env) {}

  getApiKey(which: ApiKeyWhich = 'chat'): string | null {
    if (which === 'learning') return this.entered.learning ?? this.env.CAIRN_LEARNING_API_KEY ?? null
    return this.entered.chat ?? this.env.CAIRN_API_KEY ?? this.env.OPENAI_API_KEY ?? null
  }

  async setApiKey(key: string | null, which: ApiKeyWhich = 'chat'): Promise<void> {
    this.entered[which] = key
  }

  storage(which: ApiKeyWhich = 'chat'): KeyStorage {
    if (this.entered[which]) return 'memory'
    return this.getApiKey(which) ? 'env' : 'none'
  }
}

import type { KeyStorage } from '../../shared/ipc/domain'
import type { SecretStore } from '../core/app/cairn-app'

/**
 * Browser mode and tests: the key comes from CAIRN_API_KEY / OPENAI_API_KEY, or is entered in the UI
 * and kept only in this process (never written to disk in plain text; the desktop app encrypts it).
 */
export class ProcessSecretStore implements SecretStore {
  private entered: string | null = null

  constructor(private readonly env: NodeJS.ProcessEnv = process.env) {}

  getApiKey(): string | null {
    return this.entered ?? this.env.CAIRN_API_KEY ?? this.env.OPENAI_API_KEY ?? null
  }

  async setApiKey(key: string | null): Promise<void> {
    this.entered = key
  }

  storage(): KeyStorage {
    if (this.entered) return 'memory'
    return this.getApiKey() ? 'env' : 'none'
  }
}

import type { KeyStorage } from '../../shared/ipc/domain'
import type { ApiKeyWhich, SecretStore } from '../core/app/app-context'

/**
 * Browser mode and tests: the key comes from CAIRN_API_KEY / OPENAI_API_KEY (the learning key from
 * CAIRN_LEARNING_API_KEY, the embedding key from CAIRN_EMBEDDING_API_KEY), or is entered in the UI and kept only in this process (never written to
 * disk in plain text; the desktop app encrypts it). Named secrets (an MCP server's `${secret:NAME}`
 * values, the sync token) likewise: entered ones in memory, else `CAIRN_SECRET_<NAME>` (see {@link secretEnvName};
 * the sync token also `CAIRN_SYNC_TOKEN`).
 */
export class ProcessSecretStore implements SecretStore {
  private readonly entered: Record<ApiKeyWhich, string | null> = { chat: null, learning: null, embedding: null, memoryProvider: null }
  private readonly enteredSecrets = new Map<string, string>()

  constructor(private readonly env: NodeJS.ProcessEnv = process.env) {}

  getApiKey(which: ApiKeyWhich = 'chat'): string | null {
    if (which === 'learning') return this.entered.learning ?? this.env.CAIRN_LEARNING_API_KEY ?? null
    if (which === 'embedding') return this.entered.embedding ?? this.env.CAIRN_EMBEDDING_API_KEY ?? null
    if (which === 'memoryProvider') return this.entered.memoryProvider ?? this.env.CAIRN_MEMORY_PROVIDER_API_KEY ?? null
    return this.entered.chat ?? this.env.CAIRN_API_KEY ?? this.env.OPENAI_API_KEY ?? null
  }

  async setApiKey(key: string | null, which: ApiKeyWhich = 'chat'): Promise<void> {
    this.entered[which] = key
  }

  storage(which: ApiKeyWhich = 'chat'): KeyStorage {
    if (this.entered[which]) return 'memory'
    return this.getApiKey(which) ? 'env' : 'none'
  }

  getSecret(name: string): string | null {
    // The sync token also answers to CAIRN_SYNC_TOKEN, the variable `cairn sync` reads.
    return this.enteredSecrets.get(name) ?? this.env[secretEnvName(name)] ?? (name === 'sync.token' ? this.env.CAIRN_SYNC_TOKEN : undefined) ?? null
  }

  async setSecret(name: string, value: string | null): Promise<void> {
    if (value === null) this.enteredSecrets.delete(name)
    else this.enteredSecrets.set(name, value)
  }
}

/** The variable a named secret is read from: `mcp.github.env.TOKEN` → `CAIRN_SECRET_MCP_GITHUB_ENV_TOKEN`. */
export function secretEnvName(name: string): string {
  return `CAIRN_SECRET_${name.toUpperCase().replace(/[^A-Z0-9]/g, '_')}`
}

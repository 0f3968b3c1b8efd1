import type { KeyStorage } from '../../shared/ipc/domain'
import type { ApiKeyWhich, SecretStore } from '../core/app/app-context'
import { API_KEY_ENV, envValue, forgetRememberedSecrets, readRememberedSecrets, writeRememberedSecrets, type RememberedSecrets } from './remembered-secrets'

/**
 * Browser mode and tests: the key comes from CAIRN_API_KEY / OPENAI_API_KEY (the learning key from
 * CAIRN_LEARNING_API_KEY, the embedding key from CAIRN_EMBEDDING_API_KEY), or is entered in the UI. An
 * entered key is kept in this process only (until `cairn serve` stops), unless the user chose "Remember
 * on this computer": then every key and secret entered is also kept in `<home>/secrets.local.json`
 * (mode 0600; see remembered-secrets.ts). Precedence: entered in this process, then the environment,
 * then the remembered file. Named secrets (an MCP server's `${secret:NAME}` values, the sync token)
 * likewise, the environment's being `CAIRN_SECRET_<NAME>` (see {@link secretEnvName}; the sync token
 * also `CAIRN_SYNC_TOKEN`).
 */
export class ProcessSecretStore implements SecretStore {
  private readonly entered: Record<ApiKeyWhich, string | null> = { chat: null, learning: null, embedding: null, memoryProvider: null }
  private readonly enteredSecrets = new Map<string, string>()
  /** What the remembered file holds; null while the user has not chosen to remember. */
  private remembered: RememberedSecrets | null

  constructor(
    private readonly env: NodeJS.ProcessEnv = process.env,
    /** `<home>/secrets.local.json`; without it nothing is ever remembered (tests, the CLI's MCP commands). */
    private readonly rememberFile: string | null = null
  ) {
    this.remembered = rememberFile ? readRememberedSecrets(rememberFile) : null
  }

  getApiKey(which: ApiKeyWhich = 'chat'): string | null {
    return this.entered[which] ?? this.envKey(which) ?? this.remembered?.apiKeys[which] ?? null
  }

  async setApiKey(key: string | null, which: ApiKeyWhich = 'chat'): Promise<void> {
    this.entered[which] = key
    if (!this.remembered) return
    if (key) this.remembered.apiKeys[which] = key
    else delete this.remembered.apiKeys[which]
    this.save()
  }

  storage(which: ApiKeyWhich = 'chat'): KeyStorage {
    const key = this.getApiKey(which)
    if (!key) return 'none'
    // While remembering, a key entered now is also the file's.
    if (this.entered[which]) return this.remembered?.apiKeys[which] === key ? 'file' : 'memory'
    return this.envKey(which) ? 'env' : 'file'
  }

  getSecret(name: string): string | null {
    return this.enteredSecrets.get(name) ?? envValue(this.env, secretEnvNames(name)) ?? this.remembered?.secrets[name] ?? null
  }

  async setSecret(name: string, value: string | null): Promise<void> {
    if (value === null) this.enteredSecrets.delete(name)
    else this.enteredSecrets.set(name, value)
    if (!this.remembered) return
    if (value === null) delete this.remembered.secrets[name]
    else this.remembered.secrets[name] = value
    this.save()
  }

  /** Whether entered secrets are remembered on this computer, and where; undefined where that cannot be chosen. */
  remembering(): { remember: boolean; file: string } | undefined {
    return this.rememberFile ? { remember: this.remembered !== null, file: this.rememberFile } : undefined
  }

  /**
   * Turning it on writes every key and secret entered so far to the file; turning it off deletes the
   * file, and what it held stays for this process only (as if entered now).
   */
  async setRemembering(remember: boolean): Promise<void> {
    if (!this.rememberFile) return
    if (remember) {
      const apiKeys = { ...this.remembered?.apiKeys }
      for (const which of Object.keys(this.entered) as ApiKeyWhich[]) if (this.entered[which]) apiKeys[which] = this.entered[which]!
      this.remembered = { apiKeys, secrets: { ...this.remembered?.secrets, ...Object.fromEntries(this.enteredSecrets) } }
      this.save()
      return
    }
    const held = this.remembered
    this.remembered = null
    forgetRememberedSecrets(this.rememberFile)
    for (const [which, key] of Object.entries(held?.apiKeys ?? {})) this.entered[which as ApiKeyWhich] ??= key
    for (const [name, value] of Object.entries(held?.secrets ?? {})) if (!this.enteredSecrets.has(name)) this.enteredSecrets.set(name, value)
  }

  private envKey(which: ApiKeyWhich): string | null {
    return envValue(this.env, API_KEY_ENV[which])
  }

  private save(): void {
    if (this.rememberFile && this.remembered) writeRememberedSecrets(this.rememberFile, this.remembered)
  }
}

/** The variable a named secret is read from: `mcp.github.env.TOKEN` → `CAIRN_SECRET_MCP_GITHUB_ENV_TOKEN`. */
export function secretEnvName(name: string): string {
  return `CAIRN_SECRET_${name.toUpperCase().replace(/[^A-Z0-9]/g, '_')}`
}

/** Every variable a named secret is read from, first match wins: the sync token also answers to CAIRN_SYNC_TOKEN, the variable `cairn sync` reads. */
export function secretEnvNames(name: string): string[] {
  return name === 'sync.token' ? [secretEnvName(name), 'CAIRN_SYNC_TOKEN'] : [secretEnvName(name)]
}

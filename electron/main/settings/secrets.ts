import { chmodSync, existsSync, readFileSync, renameSync, statSync } from 'node:fs'
import writeFileAtomic from 'write-file-atomic'
import { z } from 'zod'
import type { KeyStorage } from '../../../shared/ipc/domain'
import type { ApiKeyWhich, SecretStore } from '../../core/app/app-context'

/** The OS keyring as Electron's safeStorage offers it (see os-keyring.ts, the only module that touches it). */
export interface Keyring {
  isEncryptionAvailable(): boolean
  encryptString(plainText: string): Buffer
  decryptString(encrypted: Buffer): string
  /** Linux: the secret store Chromium picked; `basic_text` means a hard-coded key, i.e. no real protection. */
  selectedBackend(): string | null
}

export interface SecretsOptions {
  platform?: NodeJS.Platform
  /** Something the user should know (the key could not be read or saved). */
  onProblem?(message: string): void
}

const storedKeySchema = z.object({ ciphertext: z.string().min(1), backend: z.string().nullable(), savedAt: z.string() })
const secretsFileSchema = z.looseObject({
  version: z.literal(1),
  apiKey: storedKeySchema.optional(),
  learningApiKey: storedKeySchema.optional(),
  embeddingApiKey: storedKeySchema.optional(),
  memoryProviderApiKey: storedKeySchema.optional(),
  /** Named secrets (an MCP server's `${secret:NAME}` env and header values), each encrypted like the keys. */
  secrets: z.record(z.string(), storedKeySchema).optional()
})
type SecretsFile = z.infer<typeof secretsFileSchema>

/** Where each key lives in `secrets.json`. */
const FIELD: Record<ApiKeyWhich, 'apiKey' | 'learningApiKey' | 'embeddingApiKey' | 'memoryProviderApiKey'> = {
  chat: 'apiKey',
  learning: 'learningApiKey',
  embedding: 'embeddingApiKey',
  memoryProvider: 'memoryProviderApiKey'
}
const LABEL: Record<ApiKeyWhich, string> = { chat: 'API key', learning: 'learning API key', embedding: 'embedding API key', memoryProvider: 'memory provider API key' }
/** The variable that saves entering a key each session when there is no keyring. */
const VARIABLE: Record<ApiKeyWhich, string> = {
  chat: 'CAIRN_API_KEY',
  learning: 'CAIRN_LEARNING_API_KEY',
  embedding: 'CAIRN_EMBEDDING_API_KEY',
  memoryProvider: 'CAIRN_MEMORY_PROVIDER_API_KEY'
}

const OWNER_ONLY = 0o600

/**
 * The provider API keys (the chat provider's, one for `learning.baseURL`, one for `search.embeddingBaseURL`), encrypted by the OS
 * keyring (safeStorage) and kept as base64 ciphertext in `secrets.json` (mode 0600) next to, never
 * inside, `config.json`. The plain keys live only in this process: the renderer sees whether there is
 * one and its last four characters. When the system has no keyring at all, a key is kept in memory
 * for this session and `storage()` says so. Named secrets (`getSecret`/`setSecret`: an MCP server's
 * env and header values) are kept the same way, in the file's `secrets` map.
 */
export class KeyringSecretStore implements SecretStore {
  private readonly sessionKeys: Record<ApiKeyWhich, string | null> = { chat: null, learning: null, embedding: null, memoryProvider: null }
  private readonly decrypted: Record<ApiKeyWhich, { ciphertext: string; plain: string } | null> = { chat: null, learning: null, embedding: null, memoryProvider: null }
  /** Named secrets: kept for this session when there is no keyring, and decrypted ones by their ciphertext. */
  private readonly sessionSecrets = new Map<string, string>()
  private readonly decryptedSecrets = new Map<string, { ciphertext: string; plain: string }>()
  private lastProblem: string | null = null

  constructor(
    readonly file: string,
    private readonly keyring: Keyring,
    private readonly options: SecretsOptions = {}
  ) {}

  getApiKey(which: ApiKeyWhich = 'chat'): string | null {
    const session = this.sessionKeys[which]
    if (session) return session
    const stored = this.read()?.[FIELD[which]]
    if (!stored) return null
    const cached = this.decrypted[which]
    if (cached?.ciphertext === stored.ciphertext) return cached.plain
    try {
      const plain = this.keyring.decryptString(Buffer.from(stored.ciphertext, 'base64'))
      this.decrypted[which] = { ciphertext: stored.ciphertext, plain }
      return plain
    } catch (error) {
      this.problem(
        `Cairn could not decrypt the ${LABEL[which]} saved in ${this.file} (${(error as Error).message}). ` +
          'The system keyring may have changed. Enter the key again in Settings; the old file is kept until then.'
      )
      return null
    }
  }

  async setApiKey(key: string | null, which: ApiKeyWhich = 'chat'): Promise<void> {
    const current = this.read({ setAsideIfBroken: true }) ?? { version: 1 as const }
    const field = FIELD[which]
    if (key === null) {
      this.sessionKeys[which] = null
      this.decrypted[which] = null
      if (current[field]) this.write({ ...current, [field]: undefined })
      return
    }
    if (!this.keyring.isEncryptionAvailable()) {
      this.sessionKeys[which] = key
      this.problem(`This system offers no keyring to encrypt the ${LABEL[which]}, so Cairn keeps it for this session only. Set ${VARIABLE[which]} to avoid entering it each time.`)
      return
    }
    const ciphertext = this.keyring.encryptString(key).toString('base64')
    this.write({ ...current, version: 1, [field]: { ciphertext, backend: this.keyring.selectedBackend(), savedAt: new Date().toISOString() } })
    this.sessionKeys[which] = null
    this.decrypted[which] = { ciphertext, plain: key }
  }

  storage(which: ApiKeyWhich = 'chat'): KeyStorage {
    if (this.sessionKeys[which]) return 'memory'
    const platform = this.options.platform ?? process.platform
    return platform === 'linux' && this.keyring.selectedBackend() === 'basic_text' ? 'basic_text' : 'os'
  }

  getSecret(name: string): string | null {
    const session = this.sessionSecrets.get(name)
    if (session !== undefined) return session
    const stored = this.read()?.secrets?.[name]
    if (!stored) return null
    const cached = this.decryptedSecrets.get(name)
    if (cached?.ciphertext === stored.ciphertext) return cached.plain
    try {
      const plain = this.keyring.decryptString(Buffer.from(stored.ciphertext, 'base64'))
      this.decryptedSecrets.set(name, { ciphertext: stored.ciphertext, plain })
      return plain
    } catch (error) {
      this.problem(
        `Cairn could not decrypt the secret "${name}" saved in ${this.file} (${(error as Error).message}). ` +
          'The system keyring may have changed. Enter the value again in Settings; the old file is kept until then.'
      )
      return null
    }
  }

  async setSecret(name: string, value: string | null): Promise<void> {
    const current = this.read({ setAsideIfBroken: true }) ?? { version: 1 as const }
    const others = Object.fromEntries(Object.entries(current.secrets ?? {}).filter(([key]) => key !== name))
    this.sessionSecrets.delete(name)
    this.decryptedSecrets.delete(name)
    if (value === null) {
      if (current.secrets?.[name]) this.write({ ...current, secrets: others })
      return
    }
    if (!this.keyring.isEncryptionAvailable()) {
      this.sessionSecrets.set(name, value)
      this.problem(`This system offers no keyring to encrypt the secret "${name}", so Cairn keeps it for this session only.`)
      return
    }
    const ciphertext = this.keyring.encryptString(value).toString('base64')
    const stored = { ciphertext, backend: this.keyring.selectedBackend(), savedAt: new Date().toISOString() }
    this.write({ ...current, version: 1, secrets: { ...others, [name]: stored } })
    this.decryptedSecrets.set(name, { ciphertext, plain: value })
  }

  private read(options: { setAsideIfBroken?: boolean } = {}): SecretsFile | null {
    if (!existsSync(this.file)) return null
    this.restrictMode()
    try {
      const parsed = secretsFileSchema.safeParse(JSON.parse(readFileSync(this.file, 'utf8')))
      if (parsed.success) return parsed.data
      throw new Error(parsed.error.issues.map((issue) => `${issue.path.join('.') || 'file'}: ${issue.message}`).join('; '))
    } catch (error) {
      if (options.setAsideIfBroken) {
        // A new key is about to be written: keep the unreadable file instead of replacing it.
        const aside = `${this.file}.unreadable-${Date.now()}`
        renameSync(this.file, aside)
        this.problem(`${this.file} could not be read (${(error as Error).message}); it was moved to ${aside}.`)
        return null
      }
      this.problem(`${this.file} could not be read (${(error as Error).message}). Enter the API key again in Settings to replace it.`)
      return null
    }
  }

  private write(content: SecretsFile): void {
    writeFileAtomic.sync(this.file, JSON.stringify(content, null, 2) + '\n', { mode: OWNER_ONLY, fsync: true })
  }

  /** The file may have been copied in with looser permissions: make it owner-only again. */
  private restrictMode(): void {
    if ((this.options.platform ?? process.platform) === 'win32') return
    try {
      if ((statSync(this.file).mode & 0o077) !== 0) chmodSync(this.file, OWNER_ONLY)
    } catch {
      // Not ours to fix (another owner, read-only disk); reading still works.
    }
  }

  private problem(message: string): void {
    if (message === this.lastProblem) return
    this.lastProblem = message
    this.options.onProblem?.(message)
  }
}

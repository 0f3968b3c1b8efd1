import { chmodSync, existsSync, readFileSync, renameSync, statSync } from 'node:fs'
import writeFileAtomic from 'write-file-atomic'
import { z } from 'zod'
import type { KeyStorage } from '../../../shared/ipc/domain'
import type { SecretStore } from '../../core/app/cairn-app'

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
const secretsFileSchema = z.looseObject({ version: z.literal(1), apiKey: storedKeySchema.optional() })
type SecretsFile = z.infer<typeof secretsFileSchema>

const OWNER_ONLY = 0o600

/**
 * The provider API key, encrypted by the OS keyring (safeStorage) and kept as base64 ciphertext in
 * `secrets.json` (mode 0600) next to, never inside, `config.json`. The plain key lives only in this
 * process: the renderer sees whether there is one and its last four characters. When the system has
 * no keyring at all, the key is kept in memory for this session and `storage()` says so.
 */
export class KeyringSecretStore implements SecretStore {
  private sessionKey: string | null = null
  private decrypted: { ciphertext: string; plain: string } | null = null
  private lastProblem: string | null = null

  constructor(
    readonly file: string,
    private readonly keyring: Keyring,
    private readonly options: SecretsOptions = {}
  ) {}

  getApiKey(): string | null {
    if (this.sessionKey) return this.sessionKey
    const stored = this.read()?.apiKey
    if (!stored) return null
    if (this.decrypted?.ciphertext === stored.ciphertext) return this.decrypted.plain
    try {
      const plain = this.keyring.decryptString(Buffer.from(stored.ciphertext, 'base64'))
      this.decrypted = { ciphertext: stored.ciphertext, plain }
      return plain
    } catch (error) {
      this.problem(
        `Cairn could not decrypt the API key saved in ${this.file} (${(error as Error).message}). ` +
          'The system keyring may have changed. Enter the key again in Settings; the old file is kept until then.'
      )
      return null
    }
  }

  async setApiKey(key: string | null): Promise<void> {
    const current = this.read({ setAsideIfBroken: true }) ?? { version: 1 as const }
    if (key === null) {
      this.sessionKey = null
      this.decrypted = null
      if (current.apiKey) this.write({ ...current, apiKey: undefined })
      return
    }
    if (!this.keyring.isEncryptionAvailable()) {
      this.sessionKey = key
      this.problem('This system offers no keyring to encrypt the API key, so Cairn keeps it for this session only. Set CAIRN_API_KEY to avoid entering it each time.')
      return
    }
    const ciphertext = this.keyring.encryptString(key).toString('base64')
    this.write({ ...current, version: 1, apiKey: { ciphertext, backend: this.keyring.selectedBackend(), savedAt: new Date().toISOString() } })
    this.sessionKey = null
    this.decrypted = { ciphertext, plain: key }
  }

  storage(): KeyStorage {
    if (this.sessionKey) return 'memory'
    const platform = this.options.platform ?? process.platform
    return platform === 'linux' && this.keyring.selectedBackend() === 'basic_text' ? 'basic_text' : 'os'
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

import { safeStorage } from 'electron'
import type { Keyring } from './secrets'

/**
 * The one place that calls safeStorage. Its synchronous API is deprecated in favour of an async one
 * (removed in later Electron majors): switching means changing this adapter and the Keyring type only.
 */
export function electronKeyring(): Keyring {
  return {
    isEncryptionAvailable: () => safeStorage.isEncryptionAvailable(),
    encryptString: (plainText) => safeStorage.encryptString(plainText),
    decryptString: (encrypted) => safeStorage.decryptString(encrypted),
    selectedBackend: () => (process.platform === 'linux' ? (safeStorage.getSelectedStorageBackend?.() ?? null) : null)
  }
}

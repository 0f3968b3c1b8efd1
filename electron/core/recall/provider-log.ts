import { mkdirSync, readFileSync } from 'node:fs'
import { dirname } from 'node:path'
import { MAX_SENT_SHOWN, type MemoryProviderStatus, type SentToProvider } from '../../../shared/recall'
import { writeFileAtomicTextSync } from '../fs/atomic'

/** What was last sent to a provider and its last failure, kept across processes (the app, a CLI chat, `cairn memory provider`). */
export interface ProviderLogState {
  sent: SentToProvider[]
  lastError: MemoryProviderStatus['lastError']
}

export interface ProviderLog {
  read(): ProviderLogState
  write(state: ProviderLogState): void
}

/**
 * The log as a small JSON file in the data home (`memory-provider.json`: never synced, never in
 * config.json), one per provider name so switching shows the new provider's own. A damaged file reads
 * as empty; a failed write is only a lost line of history.
 */
export function fileProviderLog(path: string): ProviderLog {
  return {
    read() {
      try {
        const value = JSON.parse(readFileSync(path, 'utf8')) as Partial<ProviderLogState>
        const lastError = value.lastError ? { ...value.lastError, code: value.lastError.code ?? 'failed' } : null
        return { sent: Array.isArray(value.sent) ? value.sent.slice(0, MAX_SENT_SHOWN) : [], lastError }
      } catch {
        return { sent: [], lastError: null }
      }
    },
    write(state) {
      try {
        mkdirSync(dirname(path), { recursive: true })
        writeFileAtomicTextSync(path, JSON.stringify(state))
      } catch (error) {
        console.error('cairn: could not keep what was sent to the memory provider:', error)
      }
    }
  }
}

import type { CairnConfig } from '../../../shared/config'
import type { MemoryProviderStatus } from '../../../shared/recall'
import type { ProviderAccess } from '../provider/provider-access'
import type { RecallArchive } from '../recall/builtin-provider'
import { memoryRecallFor, providerSignature } from '../recall/create-provider'
import type { MemoryRecall } from '../recall/memory-recall'

export interface AppMemoryProviderDeps {
  config: () => CairnConfig
  access: Pick<ProviderAccess, 'chat' | 'learning' | 'keys'>
  dataHome: string
  archive: RecallArchive | null
  changed: (status: MemoryProviderStatus | null) => void
}

/**
 * The app's one active memory provider (`memory.provider`), built again when its settings, its key or
 * the memory switches change; every conversation asks for it at each turn, so the open ones move to
 * the new one and the old one, retired, reaches its provider no more. An incognito conversation is
 * opened without asking for it.
 */
export class AppMemoryProvider {
  private recall: MemoryRecall | null = null
  private signature = ''
  private stopListening: (() => void) | null = null

  constructor(private readonly deps: AppMemoryProviderDeps) {}

  /** The provider for a turn starting now, or null when it has nothing to work with (or both memory switches are off). */
  current(): MemoryRecall | null {
    const signature = providerSignature(this.deps.config(), this.deps.access)
    if (signature === this.signature) return this.recall
    this.retire()
    this.signature = signature
    this.recall = memoryRecallFor({ config: this.deps.config(), access: this.deps.access, dataHome: this.deps.dataHome, archive: this.deps.archive })
    this.stopListening = this.recall?.events.on((status) => this.deps.changed(status)) ?? null
    this.deps.changed(this.status())
    return this.recall
  }

  status(): MemoryProviderStatus | null {
    return this.current()?.status() ?? null
  }

  async close(): Promise<void> {
    const recall = this.recall
    this.retire()
    await recall?.shutdown()
  }

  /** The previous provider finishes what it has queued in the background, then closes. */
  private retire(): void {
    this.stopListening?.()
    this.stopListening = null
    void this.recall?.shutdown()
    this.recall = null
  }
}

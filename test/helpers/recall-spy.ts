import type { RecalledItem } from '../../shared/recall'
import type { MemoryProvider, RecallHit, RecallQuery, SyncedTurn } from '../../electron/core/recall/types'

/**
 * A memory provider that records every call and behaves as told: slow, failing a number of times,
 * or answering fixed hits. For the guarantees around providers (bounded, ordered, retried, never
 * reached from an incognito chat), which do not depend on what a provider stores.
 */
export class SpyProvider implements MemoryProvider {
  readonly name = 'mem0' as const
  readonly recalls: Array<{ query: string; options: RecallQuery }> = []
  readonly synced: SyncedTurn[] = []
  readonly syncAttempts: SyncedTurn[] = []
  readonly offeredItems: RecalledItem[][] = []
  recallDelayMs = 0
  syncFailures = 0
  hits: RecallHit[] = []

  get calls(): number {
    return this.recalls.length + this.syncAttempts.length + this.offeredItems.length
  }

  async recall(query: string, options: RecallQuery): Promise<RecallHit[]> {
    this.recalls.push({ query, options })
    if (this.recallDelayMs) await new Promise((resolve) => setTimeout(resolve, this.recallDelayMs))
    return this.hits
  }

  async search(): Promise<RecallHit[]> {
    return this.hits
  }

  async syncTurn(turn: SyncedTurn): Promise<void> {
    this.syncAttempts.push(turn)
    if (this.syncFailures > 0) {
      this.syncFailures--
      throw new Error('mem0 answered 503')
    }
    this.synced.push(turn)
  }

  async forget(): Promise<boolean> {
    return false
  }

  offered(items: RecalledItem[]): void {
    this.offeredItems.push(items)
  }

  async shutdown(): Promise<void> {}
}

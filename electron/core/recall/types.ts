import type { MemoryProviderName, RecalledItem } from '../../../shared/recall'

/** One item a provider found for a query, best first; `score` is the provider's own (higher = better). */
export interface RecallHit extends RecalledItem {
  score: number
}

/** What a recall is asked with: the conversation, and its workspace's project key (`projectKeyFor`). */
export interface RecallQuery {
  sessionId: string
  projectKey?: string | null
  signal?: AbortSignal
}

/** A finished turn as a provider is sent it: the user's own words (before any hint or recall) and the final answer. */
export interface SyncedTurn {
  sessionId: string
  userText: string
  answer: string
  /** Its workspace's project key (`projectKeyFor`): external providers tag what they keep with it and recall within it. */
  projectKey?: string | null
}

/**
 * An external or built-in memory (after Hermes's MemoryProvider, agent/memory_provider.py): it is
 * sent every finished turn, asked what it recalls for a message, searched, and told to forget.
 * Every call may be slow or fail; `MemoryRecall` bounds and retries them, so a provider never needs to.
 */
export interface MemoryProvider {
  readonly name: MemoryProviderName
  /** Items that match `query` strongly enough to offer to the model unasked (few or none for most messages). */
  recall(query: string, options: RecallQuery): Promise<RecallHit[]>
  /** Everything the provider finds for `query` (the search a person runs), best first. */
  search(query: string, options: { limit: number; signal?: AbortSignal }): Promise<RecallHit[]>
  /** Stores a finished turn (a no-op for a provider that learns otherwise, like the archive). */
  syncTurn(turn: SyncedTurn): Promise<void>
  /** Forgets one item; false when this provider cannot forget by id. */
  forget(id: string): Promise<boolean>
  /** Loads and connects ahead of the first turn (a library to import, a workspace to create), so the first recall fits its bound. */
  prepare?(): Promise<void>
  /** Of items found earlier, the ones it would still offer now (the archive leaves out entries hidden since); absent: all. */
  stillOffered?(hits: RecallHit[]): RecallHit[]
  /** Told which items were offered to the model (the archive records when each was last recalled). */
  offered?(items: RecalledItem[], at: number): void
  shutdown(): Promise<void>
}

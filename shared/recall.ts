/**
 * Memory recalled into one turn: the items a memory provider offered for the user's message, stored
 * on that message's `meta.recall` (with the fenced block the model read) so a replayed history sends
 * the same bytes and the chat can show what was recalled. zod-free so the renderer can use it.
 */

/** The memory providers: the archive in state.db (built in), or one external service. */
export const memoryProviderNames = ['builtin', 'mem0', 'honcho'] as const
export type MemoryProviderName = (typeof memoryProviderNames)[number]

export interface RecalledItem {
  /** Which provider offered it. */
  provider: MemoryProviderName
  /** The provider's own id of the item (the archive's row id, Mem0's memory id, Honcho's message id). */
  id: string
  text: string
}

export interface RecallMeta {
  /** What the model read after the user's words: the fenced `<memory-context>` block. */
  block: string
  items: RecalledItem[]
}

/** The recall stored on a user message's meta, or null when none was offered (or the meta is not one). */
export function recallOf(meta: Record<string, unknown> | null | undefined): RecallMeta | null {
  const raw = meta?.recall
  if (!raw || typeof raw !== 'object') return null
  const { block, items } = raw as { block?: unknown; items?: unknown }
  if (typeof block !== 'string' || !Array.isArray(items)) return null
  const valid = items.filter(
    (item): item is RecalledItem =>
      Boolean(item) &&
      typeof item === 'object' &&
      memoryProviderNames.includes((item as RecalledItem).provider) &&
      typeof (item as RecalledItem).id === 'string' &&
      typeof (item as RecalledItem).text === 'string'
  )
  return { block, items: valid }
}

/** What was last sent to a provider: a finished turn, or a message it was asked to recall for. */
export interface SentToProvider {
  at: number
  kind: 'turn' | 'query'
  text: string
}

/** Why a provider call failed, as a code the faces word: the key refused, the server not reached, or anything else (its message shown). */
export const providerFailureCodes = ['unauthorized', 'unreachable', 'failed'] as const
export type ProviderFailureCode = (typeof providerFailureCodes)[number]

/** The active provider as Settings → Memory and `cairn memory provider` show it. */
export interface MemoryProviderStatus {
  provider: MemoryProviderName
  /** `failing` after a sync gave up or a recall failed, until the next call that works. */
  state: 'ready' | 'failing'
  /** Synced turns still waiting (being tried again after a failure, or behind one). */
  pendingSyncs: number
  lastError: { at: number; code: ProviderFailureCode; message: string } | null
  /** The newest first, at most {@link MAX_SENT_SHOWN}. */
  sent: SentToProvider[]
}

export const MAX_SENT_SHOWN = 10

import { mkdirSync } from 'node:fs'
import { join } from 'node:path'
import type { EmbeddingSettings } from '../provider/embeddings'
import type { ProviderSettings } from '../provider/provider-settings'
import type { MemoryProvider, RecallHit, RecallQuery, SyncedTurn } from './types'

/** Mem0's open-source library in this process: extraction and embeddings on the user's own provider, stored in `storageDir`. */
export interface Mem0OssSettings {
  mode: 'oss'
  llm: ProviderSettings
  embedder: EmbeddingSettings
  storageDir: string
  userId: string
}

/** Mem0's platform, with the user's key. */
export interface Mem0PlatformSettings {
  mode: 'platform'
  apiKey: string
  host: string
  userId: string
}

export type Mem0Settings = Mem0OssSettings | Mem0PlatformSettings

/**
 * The score a memory must reach to be offered unasked. Mem0's own search keeps anything above 0.1 (its
 * score blends vector similarity, keyword and entity matches); a message about something else scores
 * near that, one about the memory's subject well above.
 */
export const MEM0_MIN_SCORE = 0.25
const RECALL_LIMIT = 5

interface Mem0Item {
  id: string
  memory: string
  score?: number
}

/** What Cairn calls of either Mem0 (`mem0ai/oss` Memory, `mem0ai` MemoryClient): the same four calls. */
interface Mem0Backend {
  add(messages: Array<{ role: 'user' | 'assistant'; content: string }>, userId: string): Promise<unknown>
  search(query: string, userId: string, limit: number, threshold?: number): Promise<Mem0Item[]>
  delete(id: string): Promise<unknown>
}

/**
 * Mem0 as a memory provider: each finished turn is added for the user (Mem0 extracts the facts), recall
 * and search are its search, forget its delete. The library is loaded on first use, with its telemetry
 * off: nothing leaves the machine that Settings does not show.
 */
export class Mem0Provider implements MemoryProvider {
  readonly name = 'mem0' as const
  private backend: Promise<Mem0Backend> | null = null

  constructor(private readonly settings: Mem0Settings) {}

  async recall(query: string, _options: RecallQuery): Promise<RecallHit[]> {
    const items = await (await this.open()).search(query, this.settings.userId, RECALL_LIMIT, MEM0_MIN_SCORE)
    return items.filter((item) => (item.score ?? 0) >= MEM0_MIN_SCORE).map(toHit)
  }

  async search(query: string, options: { limit: number }): Promise<RecallHit[]> {
    return (await (await this.open()).search(query, this.settings.userId, options.limit)).map(toHit)
  }

  async syncTurn(turn: SyncedTurn): Promise<void> {
    const messages = [
      { role: 'user' as const, content: turn.userText },
      { role: 'assistant' as const, content: turn.answer }
    ]
    await (await this.open()).add(messages, this.settings.userId)
  }

  async prepare(): Promise<void> {
    await this.open()
  }

  async forget(id: string): Promise<boolean> {
    await (await this.open()).delete(id)
    return true
  }

  async shutdown(): Promise<void> {
    this.backend = null
  }

  private open(): Promise<Mem0Backend> {
    // A failed start is tried again at the next call (the server may be up by then).
    this.backend ??= (this.settings.mode === 'oss' ? ossBackend(this.settings) : platformBackend(this.settings)).catch((error: unknown) => {
      this.backend = null
      throw error
    })
    return this.backend
  }
}

function toHit(item: Mem0Item): RecallHit {
  return { provider: 'mem0', id: item.id, text: item.memory, score: item.score ?? 0 }
}

/** Read once, when the library loads: Mem0 otherwise reports usage to its own servers. */
function telemetryOff(): void {
  process.env.MEM0_TELEMETRY = 'false'
}

async function ossBackend(settings: Mem0OssSettings): Promise<Mem0Backend> {
  telemetryOff()
  const { Memory } = await import('mem0ai/oss')
  mkdirSync(settings.storageDir, { recursive: true })
  const { embedder, llm } = settings
  const dimensions = embedder.dimensions > 0 ? embedder.dimensions : undefined
  const memory = new Memory({
    version: 'v1.1',
    // The openai client needs a key string; a server that takes none (Ollama, LM Studio) ignores it.
    embedder: { provider: 'openai', config: { apiKey: embedder.apiKey ?? '', baseURL: embedder.baseURL, model: embedder.model, embeddingDims: dimensions } },
    vectorStore: { provider: 'memory', config: { collectionName: 'cairn', dbPath: join(settings.storageDir, 'vectors.db'), dimension: dimensions } },
    llm: { provider: 'openai', config: { apiKey: llm.apiKey ?? '', baseURL: llm.baseURL, model: llm.model, timeout: llm.requestTimeoutMs } },
    historyDbPath: join(settings.storageDir, 'history.db')
  })
  return {
    add: (messages, userId) => memory.add(messages, { userId }),
    search: async (query, userId, limit, threshold) => (await memory.search(query, { topK: limit, threshold, filters: { user_id: userId } })).results,
    delete: (id) => memory.delete(id)
  }
}

async function platformBackend(settings: Mem0PlatformSettings): Promise<Mem0Backend> {
  telemetryOff()
  const { MemoryClient } = await import('mem0ai')
  const client = new MemoryClient({ apiKey: settings.apiKey, ...(settings.host ? { host: settings.host } : {}) })
  return {
    add: (messages, userId) => client.add(messages, { userId }),
    search: async (query, userId, limit, threshold) =>
      (await client.search(query, { topK: limit, threshold, filters: { user_id: userId } })).results.map((item) => ({ id: String(item.id), memory: String(item.memory ?? ''), score: item.score })),
    delete: (id) => client.delete(id)
  }
}

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
  add(messages: Array<{ role: 'user' | 'assistant'; content: string }>, userId: string, projectKey: string | null): Promise<unknown>
  /** `projectKey` a string: that project's memories and those of no project; undefined: all. */
  search(query: string, userId: string, limit: number, threshold?: number, projectKey?: string | null): Promise<Mem0Item[]>
  delete(id: string): Promise<unknown>
}

/**
 * Mem0 as a memory provider: each finished turn is added for the user (Mem0 extracts the facts), tagged
 * with its workspace's project; recall searches that project's memories and those of no project,
 * search all of them, forget is its delete. The library is loaded on first use, with its telemetry
 * off: nothing leaves the machine that Settings does not show.
 */
export class Mem0Provider implements MemoryProvider {
  readonly name = 'mem0' as const
  private backend: Promise<Mem0Backend> | null = null

  constructor(private readonly settings: Mem0Settings) {}

  async recall(query: string, options: RecallQuery): Promise<RecallHit[]> {
    const items = await (await this.open()).search(query, this.settings.userId, RECALL_LIMIT, MEM0_MIN_SCORE, options.projectKey ?? null)
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
    await (await this.open()).add(messages, this.settings.userId, turn.projectKey ?? null)
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

/** The metadata key of a memory's workspace project. */
export const MEM0_PROJECT_KEY = 'cairnProject'

/** Mem0's search filter for a conversation's project: its memories and those of no project (the key absent). */
function projectFilter(projectKey: string | null | undefined): Record<string, unknown> {
  return projectKey === undefined ? {} : { [MEM0_PROJECT_KEY]: { in: projectKey === null ? [undefined] : [projectKey, undefined] } }
}

let mem0EnvHolders = 0
let mem0EnvBefore: Record<string, string | undefined> = {}

/**
 * Runs `work` with Mem0's environment: telemetry off (read once, when the library loads; else it reports
 * usage to its own servers) and its own directory (`MEM0_DIR`, where it writes an id file, else
 * `~/.mem0`) in the data home. Set only while Mem0 works and put back after, so the commands the
 * model runs (`run_command` inherits this process's environment) never get them.
 */
async function withMem0Env<T>(dir: string | null, work: () => Promise<T>): Promise<T> {
  if (mem0EnvHolders++ === 0) {
    mem0EnvBefore = { MEM0_TELEMETRY: process.env.MEM0_TELEMETRY, MEM0_DIR: process.env.MEM0_DIR }
    process.env.MEM0_TELEMETRY = 'false'
    if (dir) process.env.MEM0_DIR = dir
  }
  try {
    return await work()
  } finally {
    if (--mem0EnvHolders === 0) {
      for (const [name, value] of Object.entries(mem0EnvBefore)) {
        if (value === undefined) delete process.env[name]
        else process.env[name] = value
      }
    }
  }
}

async function ossBackend(settings: Mem0OssSettings): Promise<Mem0Backend> {
  const memory = await withMem0Env(settings.storageDir, async () => {
    const { Memory } = await import('mem0ai/oss')
    mkdirSync(settings.storageDir, { recursive: true })
    const started = openOssMemory(Memory, settings)
    // Its start (begun in the constructor) writes the id file: it runs inside the window.
    await started.getAll({ filters: { user_id: settings.userId }, topK: 1 })
    return started
  })
  const { storageDir } = settings
  return {
    add: (messages, userId, projectKey) => withMem0Env(storageDir, () => memory.add(messages, { userId, ...(projectKey ? { metadata: { [MEM0_PROJECT_KEY]: projectKey } } : {}) })),
    search: (query, userId, limit, threshold, projectKey) =>
      withMem0Env(storageDir, async () => (await memory.search(query, { topK: limit, threshold, filters: { user_id: userId, ...projectFilter(projectKey) } })).results),
    delete: (id) => withMem0Env(storageDir, () => memory.delete(id))
  }
}

function openOssMemory(Memory: typeof import('mem0ai/oss').Memory, settings: Mem0OssSettings): import('mem0ai/oss').Memory {
  const { embedder, llm } = settings
  const dimensions = embedder.dimensions > 0 ? embedder.dimensions : undefined
  return new Memory({
    version: 'v1.1',
    // The openai client needs a key string; a server that takes none (Ollama, LM Studio) ignores it.
    embedder: { provider: 'openai', config: { apiKey: embedder.apiKey ?? '', baseURL: embedder.baseURL, model: embedder.model, embeddingDims: dimensions } },
    vectorStore: { provider: 'memory', config: { collectionName: 'cairn', dbPath: join(settings.storageDir, 'vectors.db'), dimension: dimensions } },
    llm: { provider: 'openai', config: { apiKey: llm.apiKey ?? '', baseURL: llm.baseURL, model: llm.model, timeout: llm.requestTimeoutMs } },
    historyDbPath: join(settings.storageDir, 'history.db')
  })
}

async function platformBackend(settings: Mem0PlatformSettings): Promise<Mem0Backend> {
  const { MemoryClient } = await withMem0Env(null, () => import('mem0ai'))
  const client = new MemoryClient({ apiKey: settings.apiKey, ...(settings.host ? { host: settings.host } : {}) })
  return {
    add: (messages, userId, projectKey) => client.add(messages, { userId, ...(projectKey ? { metadata: { [MEM0_PROJECT_KEY]: projectKey } } : {}) }),
    search: async (query, userId, limit, threshold, projectKey) => {
      const { results } = await client.search(query, { topK: limit, threshold, filters: { user_id: userId } })
      // The platform's filters cannot ask for "no project", so its few hits are kept by their metadata.
      return results
        .filter((item) => projectKey === undefined || [undefined, null, projectKey].includes((item.metadata as Record<string, unknown> | undefined)?.[MEM0_PROJECT_KEY] as string | undefined))
        .map((item) => ({ id: String(item.id), memory: String(item.memory ?? ''), score: item.score }))
    },
    delete: (id) => client.delete(id)
  }
}

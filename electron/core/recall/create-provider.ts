import { join } from 'node:path'
import type { CairnConfig } from '../../../shared/config'
import type { MemoryTargetName } from '../../../shared/ipc/domain'
import type { MemoryProviderName } from '../../../shared/recall'
import { resolveEmbeddingSettings } from '../provider/embeddings'
import type { ProviderAccess } from '../provider/provider-access'
import { BuiltinMemoryProvider, type RecallArchive } from './builtin-provider'
import { HonchoProvider } from './honcho-provider'
import { Mem0Provider } from './mem0-provider'
import { MemoryRecall } from './memory-recall'
import { fileProviderLog, type ProviderLog } from './provider-log'
import type { MemoryProvider } from './types'

/** Mem0's default embedding model, used by its open-source mode when neither setting names one. */
const MEM0_DEFAULT_EMBEDDING_MODEL = 'text-embedding-3-small'

export interface ProviderSources {
  config: CairnConfig
  /** The process's providers and keys: Mem0's open-source mode runs on the user's own, the external ones take `memoryProvider`. */
  access: Pick<ProviderAccess, 'chat' | 'learning' | 'keys'>
  /** The data home: Mem0's open-source store lives under it. */
  dataHome: string
  /** The archive in state.db; null where none is open (the built-in provider then has nothing to recall). */
  archive: RecallArchive | null
}

/** The provider `memory.provider` names, or null when it has nothing to work with. */
export function memoryProviderFor({ config, access, dataHome, archive }: ProviderSources): MemoryProvider | null {
  const { memory, search } = config
  const key = access.keys.apiKeyFor('memoryProvider')
  switch (memory.provider) {
    case 'builtin':
      return archive ? new BuiltinMemoryProvider(archive, recalledTargets(config)) : null
    case 'mem0': {
      const { mode, userId, host, embeddingModel } = memory.mem0
      if (mode === 'platform') return new Mem0Provider({ mode, apiKey: key ?? '', host, userId })
      const model = embeddingModel.trim() || search.embeddingModel.trim() || MEM0_DEFAULT_EMBEDDING_MODEL
      const embedder = resolveEmbeddingSettings({ ...search, embeddingModel: model }, access.chat(), access.keys.apiKeyFor('embedding'), {})!
      return new Mem0Provider({ mode, llm: access.learning(), embedder, storageDir: join(dataHome, 'mem0'), userId })
    }
    case 'honcho':
      return new HonchoProvider({ apiKey: key, ...memory.honcho })
  }
}

/**
 * The targets recall may offer entries of, after the memory switches: `memory` and `project` with
 * `memory.enabled`, `user` with `memory.userProfileEnabled`.
 */
export function recalledTargets(config: CairnConfig): Set<MemoryTargetName> {
  const { enabled, userProfileEnabled } = config.memory
  return new Set<MemoryTargetName>([...(enabled ? (['memory', 'project'] as const) : []), ...(userProfileEnabled ? (['user'] as const) : [])])
}

/**
 * Whether conversations reach a memory provider at all: with both memory switches off, nothing is
 * recalled and nothing is sent, to an external provider either (the safe reading of "memory off").
 */
export function conversationsUseProvider(config: CairnConfig): boolean {
  return config.memory.enabled || config.memory.userProfileEnabled
}

/**
 * The recall of `memory.provider`, its log kept in the data home (`memory-provider/<name>.json`); null
 * when it has nothing to work with, or (`for: 'conversations'`, the default) when both memory switches are off.
 */
export function memoryRecallFor(sources: ProviderSources, use: { for: 'conversations' | 'search' } = { for: 'conversations' }): MemoryRecall | null {
  if (use.for === 'conversations' && !conversationsUseProvider(sources.config)) return null
  const provider = memoryProviderFor(sources)
  if (!provider) return null
  const recall = new MemoryRecall(provider, { log: providerLogOf(sources.dataHome, provider.name) })
  recall.warm()
  return recall
}

/** Where a provider's log (what was sent, the last failure) is kept in the data home. */
export function providerLogOf(dataHome: string, name: MemoryProviderName): ProviderLog {
  return fileProviderLog(join(dataHome, 'memory-provider', `${name}.json`))
}

/** What decides which provider is built: when it changes, the provider is built again. */
export function providerSignature(config: CairnConfig, access: Pick<ProviderAccess, 'keys'>): string {
  const { provider, mem0, honcho, enabled, userProfileEnabled } = config.memory
  const key = provider === 'builtin' ? null : access.keys.apiKeyFor('memoryProvider')
  return JSON.stringify([provider, provider === 'mem0' ? mem0 : null, provider === 'honcho' ? honcho : null, key, enabled, userProfileEnabled])
}

import type { ArchiveEntryView } from '../../../../shared/ipc/contract-archive'
import type { IpcHandlers } from '../../../../shared/ipc/contract'
import { isAbsolute } from 'node:path'
import { IpcError } from '../../../../shared/ipc/define'
import { moveBackToCore } from '../../memory/archive-moves'
import type { ArchiveEntry, ArchiveHit, ArchiveSearchOptions } from '../../memory/archive-types'
import { coreMatches } from '../../memory/memory-search'
import { memoryTargets, type MemoryTarget } from '../../memory/types'
import type { LibrarySlice } from './route-slices'

/** A store's file name, the same in every language. */
const MEMORY_FILE: Record<MemoryTarget, string> = { memory: 'MEMORY.md', user: 'USER.md', project: 'PROJECT.md' }

type ArchiveRoutes = 'memory.search' | 'archive.list' | 'archive.remove' | 'archive.setHidden' | 'archive.restore'

/** The Memory screen's search and Archive section. The user's changes are ledger rows with source `user`. */
export function archiveHandlers(app: LibrarySlice): Pick<IpcHandlers, ArchiveRoutes> {
  const write = { source: 'user' as const, sessionId: null }
  const missing = (id: number) => IpcError.of('NOT_FOUND', 'archive.entry_missing', { id })
  return {
    'memory.search': async ({ query, limit, workspace }) => {
      if (!query.trim()) return { core: [], archive: [] }
      // The user sees every entry, hidden ones included; PROJECT.md of the workspace the screen shows, when it shows one.
      const store = workspace && isAbsolute(workspace) ? app.core.memory.forWorkspace(workspace) : app.core.memory
      const core = memoryTargets.flatMap((target) => coreMatches(store, target, query)).map(({ target, position, text }) => ({ target, position, text }))
      const options = { limit: limit ?? 20, includeHidden: true, includeSuperseded: true }
      const byWords = app.core.archive.search(query, options)
      const archive = [...byWords, ...(await byMeaning(app, query, options)).filter((hit) => !byWords.some((word) => word.id === hit.id))].slice(0, options.limit)
      return { core, archive: archive.map((hit) => view(app.core.archive.get(hit.id) ?? { ...hit, updatedAt: hit.addedAt, recallCount: 0, provenance: null })) }
    },
    'archive.list': async ({ offset, limit, target }) => ({
      entries: app.core.archive.list({ offset, limit, target }).map(view),
      total: app.core.archive.count({ target })
    }),
    'archive.remove': async ({ id }) => {
      const removed = app.core.archive.remove(id, write)
      if (!removed) throw missing(id)
      app.emit('memory.changed', {})
      return { ok: true as const, ledgerId: removed.ledgerId }
    },
    'archive.setHidden': async ({ id, hidden }) => {
      if (!app.core.archive.setHidden(id, hidden)) throw missing(id)
      app.emit('memory.changed', {})
      return { ok: true as const }
    },
    'archive.restore': async ({ id }) => {
      const outcome = await moveBackToCore(app.core, id, write)
      if (outcome.kind === 'missing') throw missing(id)
      if (outcome.kind === 'no_room') {
        const entry = app.core.archive.get(id)
        throw IpcError.of('CONFLICT', 'archive.no_room', { file: MEMORY_FILE[(entry?.target ?? 'memory') as MemoryTarget], current: outcome.current, limit: outcome.limit })
      }
      // The store's reason is English for the model; the screen says what happened in the user's language.
      if (outcome.kind === 'refused') throw IpcError.of('CONFLICT', 'archive.refused', {})
      app.emit('memory.changed', {})
      return { success: true, ...(outcome.result.success ? { message: outcome.result.message } : {}) }
    }
  }
}

/** How long the screen's search waits for the embedding model before it answers with the word matches alone. */
const MEANING_WAIT_MS = 2000

/** Archived entries that mean what the query says in other words (an embedding model set); none when there is none, or it fails or is slow. */
async function byMeaning(app: LibrarySlice, query: string, options: ArchiveSearchOptions): Promise<ArchiveHit[]> {
  const embedder = app.provider.embedder()
  if (!embedder) return []
  const signal = AbortSignal.timeout(MEANING_WAIT_MS)
  return app.core.archive.searchByMeaning(query, embedder, options, signal).catch(() => [])
}

function view(entry: ArchiveEntry): ArchiveEntryView {
  return {
    id: entry.id,
    target: entry.target,
    projectKey: entry.projectKey,
    text: entry.text,
    source: entry.source,
    addedAt: entry.addedAt,
    lastRecalledAt: entry.lastRecalledAt,
    recallCount: entry.recallCount,
    hidden: entry.hidden
  }
}

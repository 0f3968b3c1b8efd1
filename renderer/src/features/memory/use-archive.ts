import { useCallback, useEffect, useRef, useState } from 'react'
import type { ArchiveEntryView } from '../../../../shared/ipc/contract-archive'
import type { CairnClient } from '../../ipc/client'
import { describeError } from '../../ipc/error-words'
import type { ArchiveEntryActions } from './ArchiveEntryRow'

const PAGE = 50

export interface ArchiveList {
  entries: ArchiveEntryView[]
  total: number
  error: string | null
  loaded: boolean
  more(): void
  actions: ArchiveEntryActions
}

/**
 * The Archive section's list, newest first, a page at a time. It reloads when `version` changes (the
 * Memory screen's stores reloaded after `memory.changed`), so a change made anywhere shows here.
 */
export function useArchiveList(client: CairnClient, version: unknown): ArchiveList {
  const [entries, setEntries] = useState<ArchiveEntryView[]>([])
  const [total, setTotal] = useState(0)
  const [error, setError] = useState<string | null>(null)
  const [loaded, setLoaded] = useState(false)
  const shown = useRef(PAGE)

  const load = useCallback(async (): Promise<void> => {
    try {
      const page = await client.request('archive.list', { offset: 0, limit: shown.current })
      setEntries(page.entries)
      setTotal(page.total)
      setError(null)
    } catch (caught) {
      setError(describeError(caught))
    }
    setLoaded(true)
  }, [client])

  useEffect(() => {
    void load()
  }, [load, version])

  return {
    entries,
    total,
    error,
    loaded,
    more: () => {
      shown.current += PAGE
      void load()
    },
    actions: archiveActions(client, load)
  }
}

/** Hide, remove and move back one entry; `reload` runs after each (the routes also announce `memory.changed`). */
export function archiveActions(client: CairnClient, reload: () => Promise<void>): ArchiveEntryActions {
  const act = async (request: () => Promise<unknown>): Promise<string | null> => {
    try {
      await request()
      await reload()
      return null
    } catch (caught) {
      return describeError(caught)
    }
  }
  return {
    setHidden: (id, hidden) => act(() => client.request('archive.setHidden', { id, hidden })),
    remove: (id) => act(() => client.request('archive.remove', { id })),
    moveBack: (id) => act(() => client.request('archive.restore', { id }))
  }
}

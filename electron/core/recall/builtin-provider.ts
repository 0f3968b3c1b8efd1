import type { RecalledItem } from '../../../shared/recall'
import { matchesStrongly, recallQueryWords, recallTerms } from './strong-match'
import type { MemoryProvider, RecallHit, RecallQuery } from './types'

/** What recall reads of one archive entry (the archive's `ArchiveHit` has these and more). */
export interface ArchiveRecallHit {
  id: number
  text: string
  projectKey: string | null
  hidden: boolean
  score: number
}

/** The part of the memory archive (`MemoryArchive`) the built-in provider uses. */
export interface RecallArchive {
  search(query: string, options?: { limit?: number; projectKey?: string; includeHidden?: boolean; includeSuperseded?: boolean }): ArchiveRecallHit[]
  markRecalled(ids: number[], at: number): void
}

/** Candidates read from the archive per message: the strong-match filter then keeps a few. */
const CANDIDATES = 20
/** Most items offered for one message. */
export const MAX_RECALLED = 3

/**
 * The archive below the core memory files as a memory provider. It learns from memory writes, not
 * from turns, so `syncTurn` sends nothing anywhere; recall offers the entries of this workspace's
 * project or of none that match the message strongly (never hidden ones).
 */
export class BuiltinMemoryProvider implements MemoryProvider {
  readonly name = 'builtin' as const

  constructor(private readonly archive: RecallArchive) {}

  async recall(query: string, options: RecallQuery): Promise<RecallHit[]> {
    const terms = recallTerms(query)
    if (terms.size < 2) return []
    return this.hits(recallQueryWords(query).join(' '), CANDIDATES, options.projectKey ?? null)
      .filter((hit) => matchesStrongly(terms, hit.text))
      .slice(0, MAX_RECALLED)
  }

  async search(query: string, options: { limit: number }): Promise<RecallHit[]> {
    return this.hits(query, options.limit, undefined)
  }

  async syncTurn(): Promise<void> {}

  async forget(): Promise<boolean> {
    return false // the archive keeps every fact; hiding an entry is the Memory screen's
  }

  offered(items: RecalledItem[], at: number): void {
    const ids = items.filter((item) => item.provider === 'builtin').map((item) => Number(item.id))
    if (ids.length) this.archive.markRecalled(ids, at)
  }

  async shutdown(): Promise<void> {}

  /**
   * Hits of the archive, never hidden ones: for a conversation, entries of its project or of none
   * (another project's facts never leak into it); undefined (a person searching) every project's.
   */
  private hits(query: string, limit: number, projectKey: string | null | undefined): RecallHit[] {
    return this.archive
      .search(query, { limit })
      .filter((hit) => !hit.hidden && (projectKey === undefined || hit.projectKey === null || hit.projectKey === projectKey))
      .map((hit) => ({ provider: 'builtin' as const, id: String(hit.id), text: hit.text, score: hit.score }))
  }
}

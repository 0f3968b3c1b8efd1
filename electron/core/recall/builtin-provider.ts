import type { RecalledItem } from '../../../shared/recall'
import type { MemoryTargetName as MemoryTarget } from '../../../shared/ipc/domain'
import { matchesStrongly, recallQueryWords, recallTerms } from './strong-match'
import type { MemoryProvider, RecallHit, RecallQuery } from './types'

/** What recall reads of one archive entry (the archive's `ArchiveHit` has these and more). */
export interface ArchiveRecallHit {
  id: number
  target: MemoryTarget
  text: string
  projectKey: string | null
  hidden: boolean
  score: number
}

/** The part of the memory archive (`MemoryArchive`) the built-in provider uses. */
export interface RecallArchive {
  /** `projectKey` a string: that project's entries and those of no project; null: only those of no project; left out: all. */
  search(query: string, options?: { limit?: number; projectKey?: string | null; includeHidden?: boolean; includeSuperseded?: boolean }): ArchiveRecallHit[]
  markRecalled(ids: number[], at: number): void
  get(id: number): { hidden: boolean } | null
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

  /**
   * @param recalledTargets the targets whose entries recall may offer (the memory switches: `memory`
   * and `project` with `memory.enabled`, `user` with `memory.userProfileEnabled`); search reads all.
   */
  constructor(
    private readonly archive: RecallArchive,
    private readonly recalledTargets: ReadonlySet<MemoryTarget> = new Set(['memory', 'user', 'project'])
  ) {}

  async recall(query: string, options: RecallQuery): Promise<RecallHit[]> {
    const terms = recallTerms(query)
    if (terms.size < 2 || this.recalledTargets.size === 0) return []
    const found = this.archive.search(recallQueryWords(query).join(' '), { limit: CANDIDATES, projectKey: options.projectKey ?? null })
    return found
      .filter((hit) => !hit.hidden && this.recalledTargets.has(hit.target) && matchesStrongly(terms, hit.text))
      .slice(0, MAX_RECALLED)
      .map(toHit)
  }

  /** Every project's entries, never hidden ones (a person searching). */
  async search(query: string, options: { limit: number }): Promise<RecallHit[]> {
    return this.archive
      .search(query, { limit: options.limit })
      .filter((hit) => !hit.hidden)
      .map(toHit)
  }

  stillOffered(hits: RecallHit[]): RecallHit[] {
    return hits.filter((hit) => hit.provider !== 'builtin' || this.archive.get(Number(hit.id))?.hidden === false)
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
}

function toHit(hit: ArchiveRecallHit): RecallHit {
  return { provider: 'builtin', id: String(hit.id), text: hit.text, score: hit.score }
}

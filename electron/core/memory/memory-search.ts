import { scanForThreats } from '../security/threats'
import { stem } from '../text/provenance-evidence'
import { archiveMessages } from './archive-messages'
import type { ArchiveHit } from './archive-types'
import { planArchiveQuery } from './archive-query'
import { datesForModel } from './entry-dating'
import type { MemoryStore } from './memory-store'
import { projectKeyFor } from './project-key'
import { memoryTargets, type MemoryFailure, type MemoryTarget } from './types'

/** Hits the `search` action returns at most. */
const SEARCH_LIMIT = 8

/** One hit of the `search` action, as the model reads it. */
export interface MemorySearchHit {
  /** `archive:<id>`, or `<store>:<position>` (1-based) for a core entry. */
  id: string
  /** `core`: in MEMORY.md/USER.md, already in the system prompt; `archive`: only found by searching. */
  where: 'core' | 'archive'
  target: MemoryTarget
  text: string
  added: string
  /** Core entries: when a writer last saved it again. */
  last_confirmed?: string
  /** Archive entries: when it was last offered or found. */
  last_recalled?: string
  /** Archive entries: why it is there (overflow, retired, …). */
  source?: string
}

export interface MemorySearchResult {
  success: true
  query: string
  results: MemorySearchHit[]
  note: string
}

/**
 * The memory tool's `search`: the live core entries that hold the query's words, then the archive's
 * best matches (of this workspace's project and of no project), each with where it lives, its dates
 * and an id. Archive hits count as recalled, so the Memory screen shows when one last came up.
 */
export function searchMemory(
  store: MemoryStore,
  query: string,
  options: {
    target?: MemoryTarget
    workspace?: string
    enabled: (target: MemoryTarget) => boolean
    now?: number
    /** False for a search that must change nothing (another agent's over MCP): hits are not marked recalled. */
    markRecalled?: boolean
  }
): MemorySearchResult | MemoryFailure {
  const wanted = query.trim()
  if (!wanted) return { success: false, error: archiveMessages.searchNeedsQuery }
  const now = options.now ?? Date.now()
  const targets = memoryTargets.filter((target) => (options.target ? target === options.target : true) && options.enabled(target))
  const core = targets.flatMap((target) => coreHits(store, target, wanted, now))
  const archive = store.archived
  const projectKey = options.workspace ? projectKeyFor(options.workspace) : null
  const archived = archive ? archive.search(wanted, { limit: SEARCH_LIMIT, projectKey }).filter((hit) => targets.includes(hit.target)) : []
  if (archive && archived.length && options.markRecalled !== false) archive.markRecalled(archived.map((hit) => hit.id), now)
  const results = [...core.slice(0, SEARCH_LIMIT), ...archived.map((hit) => archiveHit(hit, now))].slice(0, SEARCH_LIMIT * 2)
  return {
    success: true,
    query: wanted,
    results,
    note: results.length ? archiveMessages.searchNote : archiveMessages.searchNothing
  }
}

/** A live core entry holding some of the query's words: `position` is 1-based, `score` how many words it holds. */
export interface CoreMatch {
  target: MemoryTarget
  position: number
  text: string
  score: number
}

/** The live entries of `target` that hold the query's words (Chinese/Japanese words as substrings), most words first. */
export function coreMatches(store: Pick<MemoryStore, 'read'>, target: MemoryTarget, query: string): CoreMatch[] {
  let entries: string[]
  try {
    entries = store.read(target).entries
  } catch {
    return []
  }
  const terms = termsOf(query)
  if (terms.length === 0) return []
  return entries
    .map((text, index) => {
      const words = new Set((text.normalize('NFKC').toLowerCase().match(/[\p{L}\p{N}_]+/gu) ?? []).map(stem))
      const score = terms.filter((term) => words.has(term) || (!/^[\x00-\x7f]+$/.test(term) && text.includes(term))).length
      return { target, position: index + 1, text, score }
    })
    .filter((match) => match.score > 0)
    .sort((a, b) => b.score - a.score || a.position - b.position)
}

/** Core entries the model may be shown: never one the user hid, nor one the threat scan blocks (the prompt shows it as a placeholder). */
function coreHits(store: MemoryStore, target: MemoryTarget, query: string, now: number): MemorySearchHit[] {
  const hidden = store.hiddenEntries?.list(target)
  const matches = coreMatches(store, target, query).filter((match) => !hidden?.has(match.text) && scanForThreats(match.text, 'strict').length === 0)
  if (matches.length === 0) return []
  const dates = store.datesOf(target, matches.map((match) => match.text))
  const shown = dates ? datesForModel(dates, now) : null
  return matches.map((match, i) => ({
    id: `${target}:${match.position}`,
    where: 'core',
    target,
    text: match.text,
    added: shown?.[i]?.added ?? 'unknown',
    last_confirmed: shown?.[i]?.last_confirmed ?? 'never'
  }))
}

/** The query's words as the archive's planner reads them (stop words dropped), lightly stemmed so "deploys" meets "deploy". */
function termsOf(text: string): string[] {
  const plan = planArchiveQuery(text)
  return plan.match ? plan.match.split(' OR ').map((quoted) => stem(quoted.slice(1, -1).replace(/""/g, '"'))) : []
}

function archiveHit(hit: ArchiveHit, now: number): MemorySearchHit {
  const [dates] = datesForModel([{ text: hit.text, addedAt: new Date(hit.addedAt).toISOString(), confirmedAt: hit.lastRecalledAt ? new Date(hit.lastRecalledAt).toISOString() : null }], now)
  return { id: `archive:${hit.id}`, where: 'archive', target: hit.target, text: hit.text, added: dates.added, last_recalled: dates.last_confirmed, source: hit.source }
}

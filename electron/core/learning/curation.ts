import type { ReviewJob } from '../../../shared/review-protocol'
import type { CairnCore } from '../cairn'
import { currentSkillText, skillItems } from '../skills/skill-items'
import { DAY_MS } from '../skills/skill-stats'
import { similarEntryPairs, similarSkillPairs } from './curation-candidates'
import type { CurationOverview } from './curation-prompt'
import type { LearningState } from './learning-state'
import type { ReviewHost } from './review-host'

/**
 * Curation: a review of the whole library instead of one conversation, on request (`cairn curate`,
 * the app) or every `learning.curateEveryDays` when the app is idle. It runs in the review worker like
 * any review, marked by its reason `curation`; everything it changes becomes a proposal.
 */

/** When the last curation was queued (ms since the epoch), per data home. */
export const LAST_CURATION_KEY = 'curation.lastQueuedAt'

/** The skills a curation pass lists at most, and the pairs it is pointed at first. */
const MAX_LISTED_SKILLS = 300
const MAX_SKILL_PAIRS = 20
const MAX_ENTRY_PAIRS = 20

export function isCurationJob(job: Pick<ReviewJob, 'reasons'>): boolean {
  return job.reasons.some((reason) => reason.code === 'curation')
}

/** The job a curation pass is queued as (kept apart from conversation reviews: nothing merges into it). */
export function curationJob(): Omit<ReviewJob, 'reviewId'> {
  return { sessionId: null, kinds: ['memory', 'skills'], reasons: [{ code: 'curation' }], messages: [], skillsUsed: [] }
}

/** Whether the schedule says a curation is due: never when `everyDays` is 0; due at once when none ran yet. */
export function curationDue(state: Pick<LearningState, 'get'>, everyDays: number, now = Date.now()): boolean {
  if (everyDays <= 0) return false
  const last = state.get<number | null>(LAST_CURATION_KEY, null)
  return typeof last !== 'number' || now - last >= everyDays * DAY_MS
}

/** Notes that a curation was queued now, so the schedule waits its interval again. */
export function markCurationQueued(state: Pick<LearningState, 'set'>, now = Date.now()): void {
  state.set(LAST_CURATION_KEY, now)
}

/** The library at a glance for the curator: skills with their figures, likely overlaps, and both memory files. */
export function curationOverview(core: CairnCore, now = Date.now()): CurationOverview {
  const items = skillItems(core, now).filter((item) => !item.readOnly && !item.disabled)
  const texts = items.map((item) => ({ name: item.name, description: item.description, body: bodyOf(currentSkillText(item)) }))
  const entries = { memory: safeEntries(core, 'memory'), user: safeEntries(core, 'user') }
  return {
    skills: items.slice(0, MAX_LISTED_SKILLS).map((item) => ({
      name: item.name,
      description: item.description,
      pinned: item.pinned,
      madeBy: item.madeBy,
      uses: item.stats.useCount,
      successRate: item.stats.successRate
    })),
    skillPairs: similarSkillPairs(texts, MAX_SKILL_PAIRS),
    entryPairs: [...similarEntryPairs('user', entries.user), ...similarEntryPairs('memory', entries.memory)]
      .sort((a, b) => b.score - a.score)
      .slice(0, MAX_ENTRY_PAIRS),
    memoryEntries: entries
  }
}

/** The body of a SKILL.md (what follows its front matter). */
function bodyOf(text: string | null): string {
  if (!text) return ''
  const match = /^---\r?\n[\s\S]*?\r?\n---\r?\n?/.exec(text)
  return match ? text.slice(match[0].length) : text
}

function safeEntries(core: CairnCore, target: 'memory' | 'user'): string[] {
  try {
    return core.memory.read(target).entries
  } catch {
    return [] // unreadable: the curator's memory read reports why
  }
}

/** Queues a curation pass now (kept apart: nothing merges into it) and notes the time for the schedule. */
export function queueCuration(host: Pick<ReviewHost, 'enqueue'>, state: Pick<LearningState, 'set'>, now = Date.now()): string {
  markCurationQueued(state, now)
  return host.enqueue(curationJob(), { coalesce: false })
}

/** How often the app checks whether a scheduled curation is due. */
export const CURATION_CHECK_MS = 30 * 60_000

export interface CurationScheduleDeps {
  state: Pick<LearningState, 'get' | 'set'>
  everyDays: () => number
  /** Nothing is answering and no review runs or waits: curation never competes with the user. */
  isIdle: () => boolean
  host: Pick<ReviewHost, 'enqueue'>
  clock: { now(): number; every(ms: number, tick: () => void): () => void }
}

/** Checks every {@link CURATION_CHECK_MS} and queues a curation when one is due and the app is idle; returns the stop function. */
export function scheduleCuration(deps: CurationScheduleDeps): () => void {
  return deps.clock.every(CURATION_CHECK_MS, () => {
    const now = deps.clock.now()
    if (deps.isIdle() && curationDue(deps.state, deps.everyDays(), now)) queueCuration(deps.host, deps.state, now)
  })
}

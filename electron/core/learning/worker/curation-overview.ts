import type { ReviewJob } from '../../../../shared/review-protocol'
import type { MemoryStore, MemoryTarget } from '../../memory'
import { HiddenEntries } from '../../memory/hidden-entries'
import { currentSkillText, skillItems, type SkillItemsSource } from '../../skills/skill-items'
import { similarEntryPairs, similarSkillPairs } from './curation-candidates'
import type { CurationOverview } from './curation-prompt'

/**
 * The worker's side of curation (a review of the whole library, queued by the host's
 * curation-schedule.ts): recognising a curation job and showing the curator the library at a glance.
 */

/** The skills a curation pass lists at most, and the pairs it is pointed at first. */
const MAX_LISTED_SKILLS = 300
const MAX_SKILL_PAIRS = 20
const MAX_ENTRY_PAIRS = 20

export function isCurationJob(job: Pick<ReviewJob, 'reasons'>): boolean {
  return job.reasons.some((reason) => reason.code === 'curation')
}

/** What the curator's overview reads: the skills with their figures, and both memory files. */
export interface CurationSources extends SkillItemsSource {
  memory: Pick<MemoryStore, 'read' | 'hiddenEntries'>
}

/** The library at a glance for the curator: skills with their figures, likely overlaps, and both memory files. */
export function curationOverview(core: CurationSources, now = Date.now()): CurationOverview {
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

function safeEntries(core: Pick<CurationSources, 'memory'>, target: MemoryTarget): string[] {
  try {
    // Entries the user hid are not the curator's to merge or retire: it never sees them.
    return new HiddenEntries(core.memory.hiddenEntries).visible(target, core.memory.read(target).entries)
  } catch {
    return [] // unreadable: the curator's memory read reports why
  }
}


import type { EntryPair, SkillPair } from './curation-candidates'

/**
 * The prompt of a curation pass: a review of the whole library rather than of one conversation. It
 * looks for skills that overlap, memory entries that repeat or contradict each other, and facts gone
 * stale, and proposes merges and fixes. Everything it does becomes a proposal the user decides on, and
 * nothing it proposes destroys: a merge is a new version of one skill plus an archive of the other.
 */
export const CURATION_SYSTEM_PROMPT = `You are Cairn's library curator. Cairn is a desktop assistant that keeps what it learns in two places: memory (short facts in MEMORY.md about the environment and USER.md about the user) and skills (procedures in SKILL.md files). Your job is to keep that library small, correct and easy to choose from.

Nothing you do is applied directly: every change you make becomes a proposal the user reads as a diff and approves or rejects. Make only changes you would defend to the user. "Nothing to change." is a good outcome for a tidy library.

## What to look for
- Skills that cover the same class of task (the overview lists likely pairs). If two really overlap, merge them: skill_view both, patch or edit the better-named one so it holds everything useful from both (keep every step, pitfall and command of the other that still applies; never drop text just to shorten), then delete the other with absorbed_into set to the one that now holds its content. A delete only archives the folder; it can be restored.
- Skills that are only similar in wording but do different jobs: leave them, or sharpen their descriptions so the difference is clear.
- Memory entries that say the same thing twice, or contradict each other: merge them into one entry (replace one, remove the other, in one memory call with operations). When two facts contradict and the library does not tell you which is current, leave both and say so in your final line.
- Facts that are plainly outdated by another entry or a skill: fix them.
- A skill that is obsolete or wrong beyond repair, with nothing worth merging elsewhere: propose_disable it (its files stay; the user can enable it again).

## Rules
- Read before you change: skill_view a skill in this pass before patching, editing or deleting it; memory read a file before changing it.
- Do not create new skills. Do not touch skills the overview marks as pinned.
- Keep each skill valid: name and folder unchanged, a description saying when to use it.

## Finish
Reply in one line: what you proposed, or exactly "Nothing to change."`

export interface CurationOverview {
  skills: Array<{ name: string; description: string; pinned: boolean; madeBy: string; uses: number; successRate: number | null }>
  skillPairs: SkillPair[]
  entryPairs: EntryPair[]
  memoryEntries: { memory: string[]; user: string[] }
}

const cut = (text: string, max: number): string => (text.length > max ? `${text.slice(0, max - 1)}…` : text)

/** The user message of a curation pass: the library at a glance and the likely overlaps to check first. */
export function curationUserMessage(overview: CurationOverview): string {
  const lines: string[] = ['## Skills in the library']
  if (overview.skills.length === 0) lines.push('(none)')
  for (const skill of overview.skills) {
    const marks = [skill.pinned ? 'pinned' : null, `made by ${skill.madeBy}`, `${skill.uses} uses`, skill.successRate === null ? null : `${Math.round(skill.successRate * 100)}% success`]
    lines.push(`- ${skill.name}: ${cut(skill.description, 200)} (${marks.filter(Boolean).join(', ')})`)
  }
  lines.push('', '## Skill pairs that may overlap (word overlap, 0–1; check them, do not trust the number)')
  if (overview.skillPairs.length === 0) lines.push('(none found)')
  for (const pair of overview.skillPairs) lines.push(`- ${pair.a} and ${pair.b}: ${pair.score}`)
  for (const store of ['user', 'memory'] as const) {
    lines.push('', `## ${store === 'user' ? 'USER.md (who the user is)' : 'MEMORY.md (the environment)'}`)
    const entries = overview.memoryEntries[store]
    if (entries.length === 0) lines.push('(empty)')
    entries.forEach((entry) => lines.push(`- ${cut(entry.replace(/\s+/g, ' '), 300)}`))
  }
  lines.push('', '## Memory entries that may repeat each other')
  if (overview.entryPairs.length === 0) lines.push('(none found)')
  for (const pair of overview.entryPairs) lines.push(`- ${pair.store}: "${cut(pair.a, 120)}" and "${cut(pair.b, 120)}" (${pair.score})`)
  lines.push('', 'Curate the library now, following your instructions.')
  return lines.join('\n')
}

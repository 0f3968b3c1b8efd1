import { readFileSync } from 'node:fs'
import { basename, dirname } from 'node:path'
import type { Ledger } from '../ledger/ledger'
import { specIssues } from './agent-skills-spec'
import type { SkillFlags, SkillFlagValues } from './skill-flags'
import type { SkillSummary } from './skill-index'
import { skillMadeBy, type SkillMadeBy } from './skill-origin'
import { skillWithStats, type SkillStatsSource, type SkillWithStats } from './skill-stats'
import type { SkillStore } from './skill-store'

/** A skill as the skill browser and `cairn skills` show it: its figures, the user's flags, who made it, what a strict client rejects. */
export type SkillListItem = SkillWithStats &
  SkillFlagValues & {
    madeBy: SkillMadeBy
    /** What a strict Agent Skills validator would reject in its SKILL.md; empty when valid. */
    specIssues: string[]
  }

/** What the items are read from. */
export interface SkillItemsSource extends SkillStatsSource {
  skills: Pick<SkillStore, 'list' | 'getUsage'>
  skillFlags: Pick<SkillFlags, 'all'>
  ledger: Pick<Ledger, 'forSkill'>
}

/** What decides who made a skill: its ledger rows and its usage record. */
export interface SkillOriginSource {
  skills: Pick<SkillStore, 'getUsage'>
  ledger: Pick<Ledger, 'forSkill'>
}

const NO_FLAGS: SkillFlagValues = { pinned: false, disabled: false }

/** The SKILL.md as it reads now, or null when it cannot be read. */
export function currentSkillText(skill: Pick<SkillSummary, 'path'>): string | null {
  try {
    return readFileSync(skill.path, 'utf8')
  } catch {
    return null
  }
}

/** Who made `skill` (see skillMadeBy), from its ledger rows, its usage record and its text now. */
export function skillOrigin(source: SkillOriginSource, skill: Pick<SkillSummary, 'name' | 'path' | 'readOnly'>, text = currentSkillText(skill)): SkillMadeBy {
  if (skill.readOnly) return 'external'
  return skillMadeBy({
    readOnly: false,
    history: source.ledger.forSkill(skill.name),
    createdBy: source.skills.getUsage(skill.name)?.createdBy ?? null,
    currentText: text
  })
}

/** Every visible skill with its figures, flags, maker and spec issues, sorted like the store's list. */
export function skillItems(source: SkillItemsSource, now = Date.now()): SkillListItem[] {
  const flags = source.skillFlags.all()
  return source.skills.list().map((skill) => itemOf(source, skill, flags.get(skill.name) ?? NO_FLAGS, now))
}

/** The item of the visible skill named `name`, or null when there is none. */
export function skillItem(source: SkillItemsSource & { skills: Pick<SkillStore, 'get'> }, name: string, now = Date.now()): SkillListItem | null {
  const skill = source.skills.get(name)
  return skill ? itemOf(source, skill, source.skillFlags.all().get(name) ?? NO_FLAGS, now) : null
}

function itemOf(source: SkillItemsSource, skill: SkillSummary, flags: SkillFlagValues, now: number): SkillListItem {
  const text = currentSkillText(skill)
  return {
    ...skillWithStats(source, skill, now),
    ...flags,
    madeBy: skillOrigin(source, skill, text),
    specIssues: text === null ? [] : specIssues(text, basename(dirname(skill.path)))
  }
}

import type { ReviewJob } from '../../../../shared/review-protocol'
import { relevantSkills } from '../../agent/skill-hints'
import type { IndexSkill } from '../../agent/skills-index'
import type { SkillStore } from '../../skills'
import type { SkillFlags } from '../../skills/skill-flags'
import { ellipsize } from '../../text/cut'

/**
 * The part of the skills index a review starts with, in its user message: the skills the conversation
 * followed and those matching its task words, with their descriptions. A model that makes one tool call
 * per response would otherwise spend its first call on `skills_list`; a small library is shown whole,
 * which counts as having listed it (the policy's list-before-create is then met).
 */

/** A library this small is shown whole. */
export const WHOLE_LIBRARY_SKILLS = 8
/** Skills matched by the conversation's words, at most. */
const MATCHED_SKILLS = 5
const DESCRIPTION_CHARS = 240

export interface ReviewSkillsContext {
  /** The section of the user message; empty when skills cannot be saved at all. */
  text: string
  /** Every skill of the library is in it, so a create has looked at them all. */
  wholeLibrary: boolean
}

export interface ReviewSkillsSources {
  skills: Pick<SkillStore, 'list'>
  skillFlags: Pick<SkillFlags, 'get'>
}

/** The skills a review should know about before it decides anything (its user message's skills section). */
export function reviewSkillsContext(job: Pick<ReviewJob, 'messages' | 'skillsUsed'>, sources: ReviewSkillsSources): ReviewSkillsContext {
  const catalogue: IndexSkill[] = sources.skills
    .list()
    .filter((skill) => !sources.skillFlags.get(skill.name).disabled)
    .map((skill) => ({ name: skill.name, description: skill.description, category: skill.category, readOnly: skill.readOnly }))
  if (catalogue.length === 0) {
    return { text: '## Skills in the library\nThe library has no skills yet (no need to call skills_list).', wholeLibrary: true }
  }
  const whole = catalogue.length <= WHOLE_LIBRARY_SKILLS
  const shown = whole ? catalogue : relevantPart(job, catalogue)
  const heading = whole
    ? `## Skills in the library (all ${catalogue.length}; no need to call skills_list)`
    : `## Skills in the library that this conversation touches (${shown.length} of ${catalogue.length}; skills_list shows the rest)`
  const lines = shown.map((skill) => `- ${skill.name}${skill.category ? ` [${skill.category}]` : ''}${skill.readOnly ? ' (read-only)' : ''}: ${ellipsize(skill.description, DESCRIPTION_CHARS)}`)
  const body = lines.length ? lines.join('\n') : '(none of them matches this conversation)'
  return { text: `${heading}\n${body}\nView a skill with skill_view before patching it.`, wholeLibrary: whole }
}

/** The skills the conversation followed, then those its user turns name by their words. */
function relevantPart(job: Pick<ReviewJob, 'messages' | 'skillsUsed'>, catalogue: IndexSkill[]): IndexSkill[] {
  const used = new Set(job.skillsUsed)
  const followed = catalogue.filter((skill) => used.has(skill.name))
  const userText = job.messages
    .filter((message) => message.role === 'user')
    .map((message) => message.content)
    .join('\n')
  const matched = relevantSkills(userText, catalogue, MATCHED_SKILLS).filter((skill) => !used.has(skill.name))
  return [...followed, ...matched]
}

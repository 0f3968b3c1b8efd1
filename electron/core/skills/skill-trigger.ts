import { parseFrontmatter } from './skill-file'
import type { SkillResult } from './skill-write-support'

/**
 * A skill is found again by its description: the index and the hints show it, and a model decides from
 * it whether to load the skill. A description that says what the skill does but not when to use it
 * ("Helm notes") is rarely loaded, so skill_manage asks for one that says when ("Use when deploying a
 * service to the cluster. …"). Imported and hand-made skills, and edits, are not held to it: they stay
 * valid Agent Skills as they are.
 */
const SAYS_WHEN = /\bwhen\b/i

/**
 * Characters of a description the skills index and skills_list show: room for a "Use when …" sentence
 * naming the situation and what the skill does (about 30 tokens); 60, Hermes's figure, cut most of them
 * mid-clause. A catalogue too big for the index's budget keeps them for its best ranked skills.
 */
export const DESCRIPTION_CHARS = 120

/** The description of a new SKILL.md when it does not say when to use the skill; null when it does (or cannot be read). */
export function descriptionWithoutWhen(content: string): string | null {
  const parsed = parseFrontmatter(content)
  if (!parsed.ok) return null
  const description = parsed.data.description
  if (typeof description !== 'string' || description.trim() === '' || SAYS_WHEN.test(description)) return null
  return description.replace(/\s+/g, ' ').trim()
}

/**
 * A created skill whose description does not say when to use it is kept, with a warning that carries
 * the one call that fixes it. Not refused: a model making one call per response pays a whole response
 * for a refusal, and one at its worst drops the skill instead of sending it again, losing a procedure
 * over its wording; the skill is still found by its words (index, hints) meanwhile. The author has read
 * what it created, so the patch needs no skill_view first.
 */
export function warnWithoutWhen(result: SkillResult, name: string, description: string | null): SkillResult {
  if (!description || !result.success) return result
  const warning =
    `The description does not say when to use this skill, so it may not be found again. Fix it in one call: ` +
    `skill_manage(action="patch", name="${name}", old_string=${JSON.stringify(description)}, new_string="Use when <the situation or request>. ${description.replace(/"/g, '\\"')}").`
  const warnings = Array.isArray(result.warnings) ? (result.warnings as string[]) : []
  return { ...result, warnings: [...warnings, warning] }
}

import { readFileSync } from 'node:fs'
import type { SkillWriteResult } from '../../../shared/ipc/domain'
import type { WriteContext } from '../../../shared/ledger'
import type { SkillStore } from './skill-store'

/** The user's own writes from the Skills screen: recorded with source `user`, so the skill becomes theirs. */
const BY_HAND: WriteContext = { source: 'user', sessionId: null }

export interface NewSkillByHand {
  name: string
  category: string | null
  description: string
  body: string
}

/**
 * A SKILL.md from the form's fields. The description is written as a double-quoted YAML scalar (JSON's
 * string syntax is valid YAML), so colons, quotes and `#` in it survive without the user escaping them.
 */
export function composeSkillMd(input: Pick<NewSkillByHand, 'name' | 'description' | 'body'>): string {
  const description = input.description.replace(/\s+/g, ' ').trim()
  const body = input.body.trim()
  return `---\nname: ${input.name}\ndescription: ${JSON.stringify(description)}\n---\n\n${body ? `${body}\n` : ''}`
}

/** Creates a skill from the form, validated like any skill write (name, category, Agent Skills front matter). */
export async function createSkillByHand(skills: SkillStore, input: NewSkillByHand): Promise<SkillWriteResult> {
  const name = input.name.trim()
  const existing = skills.get(name)
  if (existing) return { ok: false, code: 'exists', error: `A skill named '${name}' already exists at ${existing.path}. Choose another name.` }
  const category = input.category?.trim() || null
  const result = await skills.create({ name, category, content: composeSkillMd({ ...input, name }) }, BY_HAND)
  return result.success ? { ok: true, name } : { ok: false, code: 'invalid', error: result.error }
}

/**
 * Saves a SKILL.md the user edited in the app. `expected` is the text the editor opened with: when the
 * file reads differently now (a review or another editor wrote it meanwhile), nothing is written and the
 * user keeps their text to compare and save again.
 */
export async function saveSkillByHand(skills: SkillStore, name: string, content: string, expected: string): Promise<SkillWriteResult> {
  const skill = skills.get(name)
  if (!skill) return { ok: false, code: 'not_found', error: `There is no skill named '${name}'.` }
  if (skill.readOnly) return { ok: false, code: 'read_only', error: `Skill '${name}' lives in a read-only folder (${skill.path}); Cairn does not change it.` }
  if (readFileSync(skill.path, 'utf8') !== expected) {
    return { ok: false, code: 'changed', error: `${skill.path} changed after you opened it in the editor; nothing was saved.` }
  }
  const result = await skills.edit({ name, content }, BY_HAND)
  return result.success ? { ok: true, name } : { ok: false, code: 'invalid', error: result.error }
}

/** "Delete" in the Skills screen: the folder moves to the archive, and reverting the timeline row restores it. */
export async function archiveSkillByHand(skills: SkillStore, name: string): Promise<SkillWriteResult> {
  const skill = skills.get(name)
  if (!skill) return { ok: false, code: 'not_found', error: `There is no skill named '${name}'.` }
  if (skill.readOnly) return { ok: false, code: 'read_only', error: `Skill '${name}' lives in a read-only folder (${skill.path}); Cairn does not move it.` }
  const result = await skills.delete({ name }, BY_HAND)
  return result.success ? { ok: true, name } : { ok: false, code: 'invalid', error: result.error }
}

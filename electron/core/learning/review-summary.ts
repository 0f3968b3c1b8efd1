import type { LedgerEntry } from '../../../shared/ledger'

export const NOTHING_SAVED = 'Nothing to save.'

type SkillVerb = 'created' | 'updated' | 'deleted'

/** The skill a ledger row is about: its `meta.skill`, else the folder holding the changed file. */
function skillNameOf(entry: LedgerEntry): string {
  if (typeof entry.meta.skill === 'string' && entry.meta.skill) return entry.meta.skill
  const parts = entry.target.split('/')
  const skillMd = parts.lastIndexOf('SKILL.md')
  if (skillMd > 0) return parts[skillMd - 1]
  // A supporting file: skills/<category…>/<name>/<references|templates|scripts|assets>/<file>
  return parts.length >= 3 ? parts[parts.length - 3] : entry.target
}

function verbOf(entry: LedgerEntry): SkillVerb {
  if (entry.kind === 'skill.create') return 'created'
  if (entry.kind === 'skill.delete') return 'deleted'
  return 'updated'
}

/**
 * One line for the user about what a review changed, e.g.
 * `💾 Memory updated · User profile updated · Skill "docker-compose-debug" created · Skill "deploy" updated`.
 * Memory first, then skills in the order they were first touched; a skill created and then patched
 * in the same review reads as created. No rows → `Nothing to save.`
 */
export function summarizeReview(entries: LedgerEntry[]): string {
  const ordered = [...entries].sort((a, b) => a.id - b.id)
  let memory = false
  let user = false
  const skills = new Map<string, Set<SkillVerb>>()
  for (const entry of ordered) {
    if (entry.kind.startsWith('memory.')) {
      if (entry.target.endsWith('USER.md')) user = true
      else memory = true
      continue
    }
    const name = skillNameOf(entry)
    const verbs = skills.get(name) ?? new Set<SkillVerb>()
    verbs.add(verbOf(entry))
    skills.set(name, verbs)
  }
  const parts: string[] = []
  if (memory) parts.push('Memory updated')
  if (user) parts.push('User profile updated')
  for (const [name, verbs] of skills) {
    if (verbs.has('created') && verbs.has('deleted')) continue // made and undone within one review: nothing remains
    const verb: SkillVerb = verbs.has('created') ? 'created' : verbs.has('deleted') ? 'deleted' : 'updated'
    parts.push(`Skill "${name}" ${verb}`)
  }
  return parts.length ? `💾 ${parts.join(' · ')}` : NOTHING_SAVED
}

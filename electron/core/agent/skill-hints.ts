import { byRank, type IndexSkill } from './skills-index'

const STOP = new Set(
  'a an the of to in on at for and or is are was were be been do does did what when where who which why how it its this that these those with by from as i you we me my your our can could should would will please help want need use using get make'.split(' ')
)

function terms(text: string): string[] {
  return (text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? []).filter((t) => t.length > 1 && !STOP.has(t))
}

/**
 * Skills whose name or description share rare words with the user's message, best match first and,
 * among equal matches, the one that works best ({@link byRank}); disabled skills are never hinted.
 * Used to hint relevant skills inside the user message (never the system prompt, which must stay cached).
 */
export function relevantSkills(message: string, catalogue: IndexSkill[], limit = 3): IndexSkill[] {
  const skills = catalogue.filter((skill) => !skill.disabled)
  const query = new Set(terms(message))
  if (query.size === 0 || skills.length === 0) return []
  // Inverse document frequency over the skill catalogue: words in every description say nothing.
  const docs = skills.map((skill) => new Set(terms(`${skill.name.replace(/[-_.]/g, ' ')} ${skill.description}`)))
  const df = new Map<string, number>()
  for (const doc of docs) for (const term of doc) df.set(term, (df.get(term) ?? 0) + 1)
  const scored = skills.map((skill, i) => {
    let score = 0
    let matched = 0
    for (const term of query) {
      if (!docs[i].has(term)) continue
      matched++
      score += Math.log(1 + skills.length / (df.get(term) ?? 1))
      if (skill.name.toLowerCase().includes(term)) score += 1
    }
    return { skill, score, matched }
  })
  return scored
    .filter((s) => s.matched >= Math.min(2, query.size) && s.score >= 2.5)
    .sort((a, b) => b.score - a.score || byRank(a.skill, b.skill))
    .slice(0, limit)
    .map((s) => s.skill)
}

export function formatSkillHint(skills: IndexSkill[]): string {
  if (!skills.length) return ''
  const list = skills.map((s) => `${s.name} (${s.description.replace(/\s+/g, ' ').slice(0, 80)})`).join('; ')
  return `\n\n[Cairn: skills that may help with this: ${list}. Load one with skill_view before you start if it fits.]`
}

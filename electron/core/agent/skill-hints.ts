import { stem } from '../text/provenance-evidence'
import { byRank, type IndexSkill } from './skills-index'

const STOP = new Set(
  'a an the of to in on at for and or is are was were be been do does did what when where who which why how it its this that these those with by from as i you we me my your our can could should would will please help want need use using get make'.split(' ')
)

/**
 * Words too general to point at one skill on their own (a skill named "write-report" is not what
 * "write a poem" wants). Two of them together still count, as any two shared words do.
 */
const GENERAL = new Set(
  'add build change check code create data edit file files find fix list new note notes open project read run search set setup show skill start stop test tool update view work write'
    .split(' ')
    .map(stem)
)

/** Folded, stemmed words of a text, without the stop words: "Deploying" and "deploys" meet as "deploy". */
function terms(text: string): string[] {
  const words = text.normalize('NFKC').toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? []
  return words.filter((word) => word.length > 1 && !STOP.has(word)).map(stem)
}

/** Picks the skills to hint for a message (skill-hints-meaning.ts: by meaning, when an embedding model is set). */
export interface SkillHinter {
  hint(message: string, catalogue: IndexSkill[], signal?: AbortSignal): Promise<IndexSkill[]>
}

/** The note for the user's message naming the skills for it, by `hinter` (bounded in time) or else by words. */
export async function skillHintFor(message: string, catalogue: IndexSkill[], hinter?: SkillHinter, signal?: AbortSignal): Promise<string> {
  return formatSkillHint(hinter ? await hinter.hint(message, catalogue, signal) : relevantSkills(message, catalogue))
}

/** How many skills may share the one word a hint rests on: beyond that, the word does not pick a skill. */
const SINGLE_WORD_MAX_SKILLS = 3

/**
 * Skills whose name or description share rare words with the user's message, best match first and,
 * among equal matches, the one that works best ({@link byRank}); disabled skills are never hinted.
 * Words are compared stemmed. A hint needs two shared words, or one that is part of the skill's name,
 * is not a general word and names few skills ("deploy the web app" → `deploy-service`): a learned
 * skill is named after its task, and a paraphrase often keeps only that word.
 * Used to hint relevant skills inside the user message (never the system prompt, which must stay cached).
 */
export function relevantSkills(message: string, catalogue: IndexSkill[], limit = 3): IndexSkill[] {
  const skills = catalogue.filter((skill) => !skill.disabled)
  const query = new Set(terms(message))
  if (query.size === 0 || skills.length === 0) return []
  // Inverse document frequency over the skill catalogue: words in every description say nothing.
  const names = skills.map((skill) => new Set(terms(skill.name.replace(/[-_.]/g, ' '))))
  const docs = skills.map((skill, i) => new Set([...names[i], ...terms(skill.description)]))
  const df = new Map<string, number>()
  for (const doc of docs) for (const term of doc) df.set(term, (df.get(term) ?? 0) + 1)
  const scored = skills.map((skill, i) => {
    let score = 0
    let matched = 0
    let namingWord = false
    for (const term of query) {
      if (!docs[i].has(term)) continue
      matched++
      score += Math.log(1 + skills.length / (df.get(term) ?? 1))
      if (!names[i].has(term)) continue
      score += 1
      if (!GENERAL.has(term) && term.length >= 4 && (df.get(term) ?? 0) <= SINGLE_WORD_MAX_SKILLS) namingWord = true
    }
    return { skill, score, matched, namingWord }
  })
  return scored
    .filter((s) => (s.matched >= Math.min(2, query.size) && s.score >= 2.5) || s.namingWord)
    .sort((a, b) => b.score - a.score || byRank(a.skill, b.skill))
    .slice(0, limit)
    .map((s) => s.skill)
}

/**
 * The note added to the user's message. Firm: a model told a skill "may help … if it fits" skips it
 * and repeats the mistakes the skill records; loading it costs one skill_view.
 */
export function formatSkillHint(skills: IndexSkill[]): string {
  if (!skills.length) return ''
  const list = skills.map((s) => `${s.name} (${s.description.replace(/\s+/g, ' ').slice(0, 120)})`).join('; ')
  const first = skills[0].name
  return `\n\n[Cairn: skills that may help with this: ${list}. Before you start, load the one for this task with skill_view (e.g. skill_view(name="${first}")) and follow it.]`
}

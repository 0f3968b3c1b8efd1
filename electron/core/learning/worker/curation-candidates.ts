import { stopWords } from '../../sessions/stop-words'

/**
 * What a curation pass should look at first: pairs of skills whose words overlap, and memory entries
 * that say nearly the same thing. Found without a model (word sets weighted by rarity across the
 * library), so curation reads a short list of likely overlaps instead of every pair in a big library.
 * The model judges; these are only leads.
 */

export interface SkillText {
  name: string
  description: string
  body: string
}

export interface SkillPair {
  a: string
  b: string
  /** 0..1: the rarity-weighted share of words the two have in common. */
  score: number
}

export interface EntryPair {
  store: 'memory' | 'user'
  a: string
  b: string
  score: number
}

/** Pairs below this overlap are not worth a model's attention. */
export const SKILL_PAIR_THRESHOLD = 0.15
export const ENTRY_PAIR_THRESHOLD = 0.5
const MAX_BODY_CHARS = 20_000

function words(text: string): Set<string> {
  const out = new Set<string>()
  for (const match of text.toLowerCase().matchAll(/[\p{L}\p{N}]+/gu)) {
    const word = match[0]
    if (word.length < 3 || stopWords.has(word) || /^\d+$/.test(word)) continue
    out.add(word)
  }
  return out
}

/** Weighted Jaccard over word sets, each word weighted by `weight`. */
function overlap(x: Set<string>, y: Set<string>, weight: (word: string) => number): number {
  let common = 0
  let all = 0
  for (const word of x) {
    const w = weight(word)
    all += w
    if (y.has(word)) common += w
  }
  for (const word of y) if (!x.has(word)) all += weight(word)
  return all === 0 ? 0 : common / all
}

interface Corpus {
  /** Inverse document frequency of each word. */
  weight: (word: string) => number
  /** Every document's total weight. */
  totals: number[]
  /** For each pair `i * n + j` (i < j) sharing a word, the weight of the words they share. */
  common: Map<number, number>
}

/**
 * Weighted overlaps of every pair of documents through an inverted index, so only pairs that share a
 * word cost anything. Words in more than a third of the documents (but always the ten most) are left
 * out of the shared weight: they say little about overlap and would make the cost quadratic.
 */
function corpusOf(sets: Set<string>[]): Corpus {
  const n = sets.length
  const postings = new Map<string, number[]>()
  sets.forEach((set, doc) => {
    for (const word of set) {
      const list = postings.get(word)
      if (list) list.push(doc)
      else postings.set(word, [doc])
    }
  })
  const weight = (word: string): number => Math.log(1 + n / (postings.get(word)?.length ?? 1))
  const totals = sets.map((set) => [...set].reduce((sum, word) => sum + weight(word), 0))
  const common = new Map<number, number>()
  const tooCommon = Math.max(10, Math.ceil(n / 3))
  for (const [word, docs] of postings) {
    if (docs.length < 2 || docs.length > tooCommon) continue
    const w = weight(word)
    for (let x = 0; x < docs.length; x++) {
      for (let y = x + 1; y < docs.length; y++) {
        const key = docs[x] * n + docs[y]
        common.set(key, (common.get(key) ?? 0) + w)
      }
    }
  }
  return { weight, totals, common }
}

function pairScore(corpus: Corpus, n: number, i: number, j: number): number {
  const shared = corpus.common.get(i * n + j) ?? 0
  const union = corpus.totals[i] + corpus.totals[j] - shared
  return union <= 0 ? 0 : shared / union
}

/**
 * Skill pairs most alike by name, description and body (the description counts twice: it says what
 * the skill is for), best first, at most `limit`.
 */
export function similarSkillPairs(skills: readonly SkillText[], limit = 20, threshold = SKILL_PAIR_THRESHOLD): SkillPair[] {
  const n = skills.length
  const head = corpusOf(skills.map((skill) => words(`${skill.name.replace(/-/g, ' ')} ${skill.description}`)))
  const body = corpusOf(skills.map((skill) => words(skill.body.slice(0, MAX_BODY_CHARS))))
  const candidates = new Set([...head.common.keys(), ...body.common.keys()])
  const pairs: SkillPair[] = []
  for (const key of candidates) {
    const i = Math.floor(key / n)
    const j = key % n
    const score = (2 * pairScore(head, n, i, j) + pairScore(body, n, i, j)) / 3
    if (score >= threshold) pairs.push({ a: skills[i].name, b: skills[j].name, score: round(score) })
  }
  return pairs.sort((x, y) => y.score - x.score || x.a.localeCompare(y.a) || x.b.localeCompare(y.b)).slice(0, limit)
}

/** Entries of one memory file that say nearly the same thing (exact duplicates included), best first. */
export function similarEntryPairs(store: 'memory' | 'user', entries: readonly string[], threshold = ENTRY_PAIR_THRESHOLD): EntryPair[] {
  const sets = entries.map(words)
  const { weight } = corpusOf(sets)
  const pairs: EntryPair[] = []
  for (let i = 0; i < entries.length; i++) {
    for (let j = i + 1; j < entries.length; j++) {
      const score = entries[i].trim() === entries[j].trim() ? 1 : overlap(sets[i], sets[j], weight)
      if (score >= threshold) pairs.push({ store, a: entries[i], b: entries[j], score: round(score) })
    }
  }
  return pairs.sort((x, y) => y.score - x.score)
}

function round(value: number): number {
  return Math.round(value * 1000) / 1000
}

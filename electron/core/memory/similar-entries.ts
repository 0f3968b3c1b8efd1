import { STOPWORDS, stem } from '../text/provenance-evidence'

/**
 * Finds the existing entry a new memory entry repeats in other words (a near-duplicate) or contradicts
 * (the same frame with a different object: "User prefers npm for Node projects" beside "User prefers
 * pnpm for Node projects"), so an add can answer with that entry instead of piling up a second one.
 *
 * Lexical and deliberately precise: a false match refuses a fact the user may want kept, a missed one
 * only leaves a duplicate the next consolidation can merge. Words are folded (case, punctuation,
 * stopwords, a light stemmer shared with provenance-evidence.ts, a few synonyms of the phrasing memory
 * entries are written in); Chinese and Japanese text is compared by character pairs.
 */

export type SimilarityKind = 'near_duplicate' | 'contradiction'

export interface SimilarEntry {
  kind: SimilarityKind
  /** Where the entry stands in the list searched. */
  index: number
  entry: string
}

/** Content words alike at least this much (Jaccard) say the same thing. */
export const NEAR_DUPLICATE_OVERLAP = 0.75
/** A contradiction swaps at most this many words on each side ("VS Code" for "Neovim"). */
const MAX_SWAPPED_WORDS = 3

const CJK_CHARS = '\\u3040-\\u30FF\\u3400-\\u4DBF\\u4E00-\\u9FFF\\uAC00-\\uD7AF\\uF900-\\uFAFF'
const CJK = new RegExp(`[${CJK_CHARS}]`, 'u')
/** A word as written may mix scripts ("用pnpm"): split into CJK and other runs. */
const SCRIPT_RUN = new RegExp(`[${CJK_CHARS}]+|[^${CJK_CHARS}]+`, 'gu')
const TOKEN = /[\p{L}\p{N}_]+/gu

/** Dropped everywhere: they never decide what an entry says. */
const FILLER = new Set(['a', 'an', 'the', 's', 'to', 'be', 'also', 'really', 'usually', 'generally', 'strongly', 'very'])
const NEGATIONS = new Set(['not', 'no', 'never', 'without', 'except', 'stopped', 'don', 'doesn', 'didn', 'isn', 'aren', 'won', 't', 'dislike', 'dislikes', 'hate', 'hates', 'avoid', 'avoids'])
/** The phrasing of preferences and habits, folded to one word each so rewordings meet. */
const SYNONYMS: Record<string, string> = {
  prefers: 'prefer', preferred: 'prefer', preferring: 'prefer', preference: 'prefer', like: 'prefer', likes: 'prefer', love: 'prefer',
  loves: 'prefer', favor: 'prefer', favors: 'prefer', favour: 'prefer', favours: 'prefer', favorite: 'prefer', favourite: 'prefer',
  dislike: 'prefer', dislikes: 'prefer', hate: 'prefer', hates: 'prefer', avoid: 'prefer', avoids: 'prefer',
  uses: 'use', used: 'use', using: 'use', wants: 'want', wanted: 'want',
  are: 'is', was: 'is', were: 'is', live: 'live', lives: 'live', lived: 'live', living: 'live', resides: 'live', works: 'work',
  working: 'work'
}
/** Frames with many true objects at once: a user prefers many things, uses many tools. */
const MANY_VALUED_FRAMES = new Set(['prefer', 'use', 'want'])
/** Frames with one true object at a time: where one lives, what something is called. */
const ONE_VALUED_FRAMES = new Set(['live', 'based', 'located', 'born', 'name', 'named', 'called', 'timezone', 'default'].flatMap((word) => [word, termOf(word)]))
/** Words that are grammar, not content: a swap touching one is a rephrasing, not a different object. */
const FUNCTION_WORDS = new Set(
  'in on at of for by with from into over than as or and but is be it its his her my our their this that which who when where while via per instead rather then use prefer want user'.split(
    ' '
  )
)
/** Chinese frames, as character pairs: prefer/like, use, is, live in. */
const CJK_FRAMES = new Set(['喜欢', '偏好', '习惯', '使用', '用的', '住在', '位于'])

interface Shape {
  /** Folded words in order (CJK as single characters), filler and negations left out. */
  sequence: string[]
  /** What the entry is about: content words and CJK character pairs. */
  terms: Set<string>
  negated: boolean
}

function shapeOf(text: string): Shape {
  const sequence: string[] = []
  const terms = new Set<string>()
  let negated = false
  for (const match of text.normalize('NFKC').toLowerCase().replace(PASSED_OVER, ' over ').matchAll(TOKEN)) {
    for (const run of match[0].match(SCRIPT_RUN) ?? []) {
      if (CJK.test(run)) {
        const chars = [...foldCjk(run)]
        if (/[不没别]/u.test(run)) negated = true
        sequence.push(...chars)
        for (let index = 0; index + 1 < chars.length; index++) terms.add(chars[index] + chars[index + 1])
        continue
      }
      if (NEGATIONS.has(run)) negated = true
      if (FILLER.has(run) || (NEGATIONS.has(run) && !SYNONYMS[run])) continue
      const word = SYNONYMS[run] ?? termOf(run)
      sequence.push(word)
      if (isContent(word, run)) terms.add(word)
    }
  }
  return { sequence: foldPhrases(sequence), terms, negated }
}

/** "pnpm, not npm" says what "pnpm over npm" says: the "not" names what was passed over, it does not negate. */
const PASSED_OVER = /,\s*(?:but\s+)?(?:not|never)\s+(?=\S)/g

/** Wordings of one frame folded to one, so a swap lines up: "prefers using pnpm instead of npm" is "prefer pnpm over npm". */
const PHRASES: ReadonlyArray<[readonly string[], string]> = [
  [['instead', 'of'], 'over'],
  [['rather', 'than'], 'over'],
  [['prefer', 'use'], 'prefer']
]

function foldPhrases(sequence: readonly string[]): string[] {
  const folded: string[] = []
  for (let index = 0; index < sequence.length; index++) {
    const phrase = PHRASES.find(([words]) => words.every((word, offset) => sequence[index + offset] === word))
    if (phrase) {
      folded.push(phrase[1])
      index += phrase[0].length - 1
    } else folded.push(sequence[index])
  }
  return folded
}

/** Chinese particles that never decide what an entry says, and the wordings of "use" and "prefer" folded to one. */
const CJK_FILLER = /[的了来着地得也都很]/gu
const CJK_SYNONYMS: Array<[RegExp, string]> = [
  [/使用|采用|利用/gu, '用'],
  [/偏好|偏爱|爱用|喜爱/gu, '喜欢']
]

function foldCjk(run: string): string {
  return CJK_SYNONYMS.reduce((text, [pattern, word]) => text.replace(pattern, word), run.replace(CJK_FILLER, ''))
}

/** The stemmer's form, with a final 'e' dropped so "name" meets "named" and "live" meets "lived". */
function termOf(word: string): string {
  const stemmed = stem(word)
  return stemmed.length > 3 && stemmed.endsWith('e') ? stemmed.slice(0, -1) : stemmed
}

function isContent(term: string, word: string): boolean {
  if (FUNCTION_WORDS.has(term) || STOPWORDS.has(word) || STOPWORDS.has(term)) return false
  return word.length >= 2 || /\d/.test(word)
}

/** At least this many content words, all within the other's, and at most this many more there: a restatement with a detail added. */
const MIN_CONTAINED_WORDS = 3
const MAX_ADDED_WORDS = 2

function jaccard(a: ReadonlySet<string>, b: ReadonlySet<string>): number {
  let shared = 0
  for (const term of a) if (b.has(term)) shared++
  const union = a.size + b.size - shared
  return union === 0 ? 0 : shared / union
}

/**
 * How `added` relates to `existing`: says the same in other words, contradicts it, or neither (null).
 * Identical text is neither: the caller treats an exact repeat as a no-op.
 */
export function compareEntries(existing: string, added: string): SimilarityKind | null {
  if (existing.trim() === added.trim()) return null
  return compareShapes(shapeOf(existing), shapeOf(added))
}

function compareShapes(old: Shape, next: Shape): SimilarityKind | null {
  // The swap first: in a long entry one swapped object leaves most words shared, yet it says otherwise.
  if (swapsObject(old, next)) return 'contradiction'
  if (sameWords(old, next)) return old.negated === next.negated ? 'near_duplicate' : 'contradiction'
  return null
}

/** The same content words (allowing a small share of different ones), enough of them to tell. */
function sameWords(a: Shape, b: Shape): boolean {
  const smaller = Math.min(a.terms.size, b.terms.size)
  if (smaller === 0) return false
  // A number only one of them holds (a version, a port, an id) makes it another fact, however alike the rest.
  if ([...a.terms, ...b.terms].some((term) => /\d/.test(term) && !(a.terms.has(term) && b.terms.has(term)))) return false
  const overlap = jaccard(a.terms, b.terms)
  // One or two content words say too little on their own: the rest of the phrasing must agree too.
  if (smaller < MIN_CONTAINED_WORDS) return overlap === 1 && jaccard(new Set(a.sequence), new Set(b.sequence)) >= NEAR_DUPLICATE_OVERLAP
  if (overlap >= NEAR_DUPLICATE_OVERLAP) return true
  const [few, many] = a.terms.size <= b.terms.size ? [a.terms, b.terms] : [b.terms, a.terms]
  return [...few].every((term) => many.has(term)) && many.size - few.size <= MAX_ADDED_WORDS
}

/**
 * The same sentence with one object swapped: identical words before and after, a short run of content
 * words that differs, after a frame that holds one value at a time ("lives in", "X is") or, for frames
 * that hold many ("prefers", "uses"), with shared context words ("for Node projects") or objects that
 * differ by a letter or two (npm / pnpm) so the swap is of the same thing.
 */
function swapsObject(a: Shape, b: Shape): boolean {
  const x = a.sequence
  const y = b.sequence
  let prefix = 0
  while (prefix < x.length && prefix < y.length && x[prefix] === y[prefix]) prefix++
  let suffix = 0
  while (suffix < x.length - prefix && suffix < y.length - prefix && x[x.length - 1 - suffix] === y[y.length - 1 - suffix]) suffix++
  const swappedA = x.slice(prefix, x.length - suffix)
  const swappedB = y.slice(prefix, y.length - suffix)
  if (swappedA.length === 0 || swappedB.length === 0) return false
  if (swappedA.length > MAX_SWAPPED_WORDS || swappedB.length > MAX_SWAPPED_WORDS) return false
  // The same words in another order ("concise answers" / "answers … concise") rephrase, they do not swap.
  if (swappedA.length === swappedB.length && swappedA.every((word) => swappedB.includes(word))) return false
  if (![...swappedA, ...swappedB].every((word) => !FUNCTION_WORDS.has(word))) return false
  const before = x.slice(0, prefix)
  const context = [...before, ...x.slice(x.length - suffix)].filter((word) => isContent(word, word) && !CJK.test(word))
  if (before.some((word) => CJK.test(word))) return cjkFrame(before)
  if (before.some((word) => ONE_VALUED_FRAMES.has(word))) return true
  // "X is …" holds one value when X is a thing ("User's editor is"), not the user themself ("User is a …").
  const copula = before.indexOf('is')
  if (copula > 0 && before.slice(0, copula).some((word) => word !== 'user' && isContent(word, word))) return true
  if (!before.some((word) => MANY_VALUED_FRAMES.has(word))) return false
  // A user prefers many things for one context ("pnpm for Node projects" and "TypeScript for Node
  // projects" both hold): a swap is a contradiction only against what was passed over ("X over npm"),
  // between two spellings of one thing (npm / pnpm), or between the two ends of one scale (dark / light).
  const single = swappedA.length === 1 && swappedB.length === 1
  const comparative = x.includes('over') || y.includes('over')
  return (context.length > 0 && comparative) || (single && (closeSpelling(swappedA[0], swappedB[0]) || opposites(swappedA[0], swappedB[0])))
}

function cjkFrame(before: readonly string[]): boolean {
  const text = before.join('')
  return [...CJK_FRAMES].some((frame) => text.includes(frame))
}

/** The two ends of scales preferences sit on: choosing one gives up the other. */
const OPPOSITES: ReadonlyArray<readonly [string, string]> = [
  ['dark', 'light'],
  ['tab', 'space'],
  ['short', 'long'],
  ['concise', 'detail'],
  ['formal', 'casual'],
  ['metric', 'imperial'],
  ['celsius', 'fahrenheit'],
  ['morn', 'even']
]

function opposites(a: string, b: string): boolean {
  const norm = (word: string) => termOf(word).replace(/s$/, '')
  const [x, y] = [norm(a), norm(b)]
  return OPPOSITES.some(([one, other]) => (norm(one) === x && norm(other) === y) || (norm(one) === y && norm(other) === x))
}

/** One word inside the other (npm, pnpm) or one letter apart (python2, python3). */
function closeSpelling(a: string, b: string): boolean {
  if (a.length < 2 || b.length < 2) return false
  if (a.includes(b) || b.includes(a)) return Math.abs(a.length - b.length) <= 2
  if (a.length !== b.length) return false
  let differences = 0
  for (let index = 0; index < a.length; index++) if (a[index] !== b[index]) differences++
  return differences === 1
}

/** Whether `added` says nothing `existing` does not: every content word of it is already there. */
export function addsNothingTo(existing: string, added: string): boolean {
  const have = shapeOf(existing).terms
  return [...shapeOf(added).terms].every((term) => have.has(term))
}

/**
 * The existing entry `added` near-duplicates or contradicts, or null. A near-duplicate wins over a
 * contradiction; ties go to the most alike entry. Exact repeats are not reported (they are no-ops).
 */
export function findSimilarEntry(entries: readonly string[], added: string): SimilarEntry | null {
  let best: (SimilarEntry & { score: number }) | null = null
  const text = added.trim()
  if (entries.includes(text)) return null
  const next = shapeOf(text)
  for (const [index, entry] of entries.entries()) {
    const old = shapeOf(entry)
    const kind = compareShapes(old, next)
    if (!kind) continue
    const score = (kind === 'near_duplicate' ? 2 : 1) + jaccard(old.terms, next.terms)
    if (!best || score > best.score) best = { kind, index, entry, score }
  }
  return best && { kind: best.kind, index: best.index, entry: best.entry }
}

/** Content words a hidden entry and an add must share, at least and as a share of the shorter one, to be one subject. */
const HIDDEN_SUBJECT_MIN_SHARED = 2
const HIDDEN_SUBJECT_OVERLAP = 0.5

/**
 * The hidden entry `added` brings up again, word for word or in other words, or null. Looser than
 * {@link findSimilarEntry} on purpose: a false match only refuses an add close to what the user asked
 * not to hear about, while a miss puts that subject back in front of the model.
 */
export function findHiddenSubject(hidden: readonly string[], added: string): string | null {
  const text = added.trim()
  const next = shapeOf(text)
  for (const entry of hidden) {
    if (entry === text) return entry
    const old = shapeOf(entry)
    if (compareShapes(old, next)) return entry
    let shared = 0
    for (const term of next.terms) if (old.terms.has(term)) shared++
    if (shared >= HIDDEN_SUBJECT_MIN_SHARED && shared / Math.min(old.terms.size, next.terms.size) >= HIDDEN_SUBJECT_OVERLAP) return entry
  }
  return null
}

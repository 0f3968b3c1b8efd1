import type { StateDb } from '../db/state-db'
import { foldQuery } from './cjk-query'
import { isUnsegmented, MAX_QUERY_CHARS, quoteTerm, stemSafePrefix, type QueryTerm, type SearchPlan } from './fts-query'
import { spellStems, stemOf } from './prefix-stems'
import { STOP_MIN_CORPUS, STOP_SHARE } from './query-planner'
import { stopWords } from './stop-words'
import { STATS_STALE_MESSAGES, STATS_STALE_SHARE } from './term-stats'

/**
 * Completion of the word still being typed into the sidebar search: "pnp" searches the history's
 * likeliest words starting with it ("pnpm"), found in the word index's vocabulary (`messages_vocab`,
 * an fts5vocab table: see db/vocab-migration.ts). FTS5's own prefix query (`pnp*`) merges the
 * postings of every matching word and costs about 100 ms at a million messages; a vocabulary range
 * costs the postings it counts instead, and this reads a bounded number of them:
 * - a word's count costs a walk of its postings (about 30 ns each), so a scan stops once it has
 *   counted VOCAB_SCAN_POSTINGS postings or VOCAB_SCAN_TERMS words (a two-letter-like prefix of a
 *   large history begins thousands of words);
 * - a word found to be heavy (HEAVY_TERM_DOCUMENTS messages or more) is remembered with its count,
 *   and later scans jump over it (the range is read in the pieces between heavy words), so typing on
 *   costs the light words only;
 * - a range too large for one scan is read on by the next search of the same prefix from where the
 *   last one stopped, and kept once whole (until the history grows by STATS_STALE_SHARE), so the
 *   completions of "con" improve from the first keystroke to the third rather than staying those of
 *   its first few hundred words alphabetically.
 * The vocabulary holds porter stems; a prefix of a stem is what the user has typed (its final e or y
 * dropped, as for `deploy*`), and a completion is searched through a word that stems to it
 * (prefix-stems.ts), so it matches every word it stands for.
 */

/** Shorter prefixes begin too many words to guess from: they are searched as typed, as whole words. */
export const PREFIX_MIN_CHARS = 3
/** Completions searched beside the typed word, the most frequent first. */
export const PREFIX_COMPLETIONS = 5
/** Postings one scan may count: about 2 ms. */
export const VOCAB_SCAN_POSTINGS = 60_000
/** Vocabulary rows one scan may read. */
export const VOCAB_SCAN_TERMS = 200
/** Words in at least this many messages are remembered and jumped over by later scans. */
export const HEAVY_TERM_DOCUMENTS = 5_000
/** Heavy words remembered per database. */
const HEAVY_CACHE_TERMS = 4096
/**
 * When nothing in the vocabulary starts with what was typed, the stem may be shorter than it
 * ("configura" of configuration → "configur", "runni" of running → "run"): stems this many letters
 * shorter, and no shorter than PREFIX_MIN_CHARS, are looked up as whole stems.
 */
export const STEM_SHORTER_BY = 3

export interface Completion {
  /** The stem as the vocabulary holds it, searched as a word. */
  term: string
  /** Messages holding it. */
  documents: number
}

export interface PrefixCompletions {
  /** The word being typed, as typed. */
  typed: string
  completions: Completion[]
  /** The scan stopped at its budget: later words of the range were not counted yet. */
  truncated: boolean
  /** Vocabulary rows this call read (each costs a walk of that word's postings). */
  scanned: number
}

/** What scans of one database have learned, dropped as term-stats drops its counts (when the corpus grows). */
interface VocabularyCache {
  corpus: number
  /** Heavy words and their counts, jumped over by later scans. */
  heavy: Map<string, number>
  /** Scans of a large range left unfinished at their budget: the next search of the prefix goes on from `resumeAt`. */
  partial: Map<string, { rows: Map<string, number>; resumeAt: string | null }>
}

const caches = new WeakMap<StateDb, VocabularyCache>()
/** Prefixes whose large range is remembered. */
const PARTIAL_CACHE_PREFIXES = 64

// A word the sidebar may still be typing: letters, digits and marks running to the end of the
// input, not joined to a previous word by - . _ / \ @ or an apostrophe (those are phrases and
// possessives, searched as typed), and not closing a quoted phrase.
const trailingWord = /(?:^|[^\p{L}\p{N}\p{M}\-._/\\@'’"*])([\p{L}\p{N}\p{M}]+)$/u

/**
 * The word at the very end of `input` when it may be unfinished (no space or punctuation after it),
 * else null. Unsegmented script (Chinese, Japanese …) is left to its own indexes, and a stop word
 * is taken as meant ("the" is far likelier than "theme" mid-query).
 */
export function unfinishedWord(input: string): string | null {
  const text = foldQuery(input.slice(0, MAX_QUERY_CHARS))
  if (((text.match(/"/g) ?? []).length & 1) === 1 && /"[^"]*$/.test(text)) {
    // Inside an open quote the word is part of a phrase being typed: searched as typed.
    return null
  }
  const word = trailingWord.exec(text)?.[1]
  if (!word || isUnsegmented(word) || [...word].length < PREFIX_MIN_CHARS) return null
  return stopWords.has(word.toLowerCase()) ? null : word
}

/**
 * The likeliest completions of `typed` in this history: the words of the vocabulary starting with it,
 * most messages first, at most `limit`, without stop-word-like ones (in more than STOP_SHARE of
 * messages, once the history is large enough to tell).
 */
export function completePrefix(db: StateDb, typed: string, corpus: number, limit = PREFIX_COMPLETIONS): PrefixCompletions {
  const folded = vocabularyForm(typed)
  const prefix = stemSafePrefix(folded)
  const cache = vocabularyCache(db, corpus)
  const scan = scanPrefix(db, cache, prefix)
  let { rows } = scan
  if (!rows.length) rows = shorterStems(db, cache, folded)
  const stopLike = (documents: number): boolean => corpus >= STOP_MIN_CORPUS && documents > STOP_SHARE * corpus
  const completions = rows
    .filter((row) => !stopLike(row.documents) && !stopWords.has(row.term))
    .sort((a, b) => b.documents - a.documents || a.term.length - b.term.length || (a.term < b.term ? -1 : 1))
    .slice(0, limit)
  return { typed, completions, truncated: scan.truncated, scanned: scan.scanned }
}

/** Forgets what scans of a database have learned (in tests). */
export function forgetVocabulary(db: StateDb): void {
  caches.delete(db)
}

/** As the tokenizer stores words: lower case, Latin letters without diacritics (`remove_diacritics 2`); other scripts keep their marks. */
function vocabularyForm(word: string): string {
  return word.normalize('NFD').replace(/(?<=\p{Script=Latin})\p{M}+/gu, '').normalize('NFC').toLowerCase()
}

function vocabularyCache(db: StateDb, corpus: number): VocabularyCache {
  let cache = caches.get(db)
  if (!cache || corpus > cache.corpus * (1 + STATS_STALE_SHARE) + STATS_STALE_MESSAGES || corpus < cache.corpus) {
    cache = { corpus, heavy: new Map(), partial: new Map() }
    caches.set(db, cache)
  }
  return cache
}

/** Above any character a word may hold: `prefix + LAST_CHAR` is above every word starting with prefix. */
const LAST_CHAR = '\u{10FFFF}'

/**
 * The words starting with `prefix` and their counts, as far as the budget reached. A range read
 * whole in one search is read again by the next (a new word is found at once); a larger one is
 * read on from where the last search stopped, until it is whole, and then kept.
 */
function scanPrefix(db: StateDb, cache: VocabularyCache, prefix: string): { rows: Completion[]; truncated: boolean; scanned: number } {
  const through = `${prefix}${LAST_CHAR}`
  const earlier = cache.partial.get(prefix)
  const rows = earlier?.rows ?? new Map<string, number>()
  const from = earlier ? earlier.resumeAt : prefix
  const { resumeAt, scanned } = from === null ? { resumeAt: null, scanned: 0 } : scanRange(db, cache, rows, from, through)
  if (resumeAt !== null || earlier) {
    if (!earlier && cache.partial.size >= PARTIAL_CACHE_PREFIXES) cache.partial.delete(cache.partial.keys().next().value as string)
    cache.partial.set(prefix, { rows, resumeAt })
  }
  return { rows: [...rows].map(([term, documents]) => ({ term, documents })), truncated: resumeAt !== null, scanned }
}

/**
 * Reads the words in [from, through] into `rows`: heavy ones from the cache, the rest from the
 * vocabulary in the pieces between them, until the budget is spent. Answers where to go on from
 * (null when the range was read to its end) and how many rows were read.
 */
function scanRange(db: StateDb, cache: VocabularyCache, rows: Map<string, number>, from: string, through: string): { resumeAt: string | null; scanned: number } {
  const known = [...cache.heavy].filter(([term]) => term >= from && term <= through).sort((a, b) => (a[0] < b[0] ? -1 : 1))
  for (const [term, documents] of known) rows.set(term, documents)
  const range = db.prepare('SELECT term, doc AS documents FROM messages_vocab WHERE term >= ? AND term <= ?')
  let postings = 0
  let read = 0
  // fts5vocab counts a row before SQLite tests `term > x` or `term < x` against it (it only seeks to
  // a lower bound and stops past an upper one), so a piece's bounds are inclusive and exclude the
  // heavy words around it: from just past one (no word holds a control character) to just below the next.
  const pieces = [from, ...known.map(([term]) => justPast(term))].map((lower, i) => [lower, known[i] ? justBelow(known[i][0]) : through] as const)
  for (const [lower, upper] of pieces) {
    if (lower > upper) continue
    for (const row of range.iterate(lower, upper) as IterableIterator<Completion>) {
      rows.set(row.term, row.documents)
      if (row.documents >= HEAVY_TERM_DOCUMENTS) remember(cache, row)
      postings += row.documents
      read += 1
      // Leaving the loop early returns the iterator, which resets the statement.
      if (postings >= VOCAB_SCAN_POSTINGS || read >= VOCAB_SCAN_TERMS) return { resumeAt: justPast(row.term), scanned: read }
    }
  }
  return { resumeAt: null, scanned: read }
}

function justPast(term: string): string {
  return `${term}\u0001`
}

/** A string below `term` and above every word below it: its last character one lower, then LAST_CHAR. */
function justBelow(term: string): string {
  const chars = [...term]
  const last = chars.pop()!.codePointAt(0)!
  return last > 1 ? `${chars.join('')}${String.fromCodePoint(last - 1)}${LAST_CHAR}` : chars.join('')
}

/** Stems up to STEM_SHORTER_BY letters shorter than the typed word that it begins with. */
function shorterStems(db: StateDb, cache: VocabularyCache, typed: string): Completion[] {
  const exact = db.prepare('SELECT doc FROM messages_vocab WHERE term = ?').pluck()
  const found: Completion[] = []
  for (let cut = 1; cut <= STEM_SHORTER_BY && typed.length - cut >= PREFIX_MIN_CHARS; cut++) {
    const term = typed.slice(0, -cut)
    const documents = cache.heavy.get(term) ?? (exact.get(term) as number | undefined)
    if (documents === undefined) continue
    if (documents >= HEAVY_TERM_DOCUMENTS) remember(cache, { term, documents })
    found.push({ term, documents })
  }
  return found
}

function remember(cache: VocabularyCache, row: Completion): void {
  if (cache.heavy.size >= HEAVY_CACHE_TERMS && !cache.heavy.has(row.term)) cache.heavy.delete(cache.heavy.keys().next().value as string)
  cache.heavy.set(row.term, row.documents)
}

/** A search plan with the unfinished last word's completions added as words, and their counts. */
export interface CompletedPlan {
  plan: SearchPlan
  /** FTS5 expression of each completion → messages holding it (from the vocabulary, so not counted again). */
  known: Map<string, number>
}

/**
 * `plan` for `input` with the likeliest completions of its unfinished last word searched beside it
 * (OR-ed like every other word, so bm25 and the planner weigh them as words) and marked in snippets.
 * Unchanged when the input ends in a finished word.
 */
export function withCompletions(db: StateDb, input: string, plan: SearchPlan): CompletedPlan {
  const typed = unfinishedWord(input)
  if (!typed) return { plan, known: new Map() }
  const corpus = (db.prepare('SELECT max(id) AS n FROM messages').get() as { n: number | null }).n ?? 0
  // Asked for one more: the typed word's own stem, already searched as the typed word, is left out.
  const completions = completePrefix(db, typed, corpus, PREFIX_COMPLETIONS + 1).completions
  const ownStem = stemOf(db, typed)
  const spelled = spellStems(db, completions.map((c) => c.term))
  const searched = new Set(plan.terms.map(quoteTerm))
  const known = new Map<string, number>()
  const added: Array<QueryTerm & { stem: string }> = []
  for (const { term, documents } of completions) {
    const spelling = spelled.get(term)
    if (!spelling || term === ownStem || added.length >= PREFIX_COMPLETIONS) continue
    const word = { text: spelling, phrase: false, prefix: false }
    const expression = quoteTerm(word)
    if (searched.has(expression)) continue
    searched.add(expression)
    known.set(expression, documents)
    added.push({ ...word, stem: term })
  }
  if (!added.length) return { plan, known }
  const terms: QueryTerm[] = [...plan.terms, ...added.map(({ stem: _stem, ...word }) => word)]
  return {
    plan: {
      ...plan,
      fts: terms.filter((t) => !isUnsegmented(t.text)).map(quoteTerm).join(' OR '),
      terms,
      // The stem marks the words it stands for where FTS5 cannot mark them (it begins most of them).
      highlights: [...new Set([...plan.highlights, ...added.flatMap((t) => [t.text, t.stem])])]
    },
    known
  }
}

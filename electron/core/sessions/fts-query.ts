import { stopWords } from './stop-words'
import { foldQuery, segmentedQueryPieces, unmarked } from './cjk-query'

/**
 * Natural language in, FTS5 expressions out. Every term is emitted as a double-quoted FTS5 string and
 * the terms are OR-ed, so no input (operators, stray quotes, `C++`, `***`, column filters) can produce
 * a syntax error, and a question matches messages that contain *some* of its words, ranked by bm25,
 * instead of nothing because one word is missing (FTS5's implicit AND).
 */

/** Inputs longer than this are cut before parsing (bounded work for any input). */
export const MAX_QUERY_CHARS = 2048
/** At most this many terms reach SQLite; later ones add little and cost a posting list each. */
export const MAX_QUERY_TERMS = 32
/** Unsegmented tokens this long or longer are searched through the trigram index. */
export const TRIGRAM_MIN_CHARS = 3

export interface QueryTerm {
  /** The term as searched: a word, a phrase (`chat-send`, a quoted phrase) or an unsegmented run. */
  text: string
  /** Multi-token: matched as an exact phrase. */
  phrase: boolean
  /** `deploy*`: matches any word starting with the term. */
  prefix: boolean
}

export interface SearchPlan {
  /** OR-expression for the word index (`messages_fts`), or null when no term goes there. */
  fts: string | null
  /** OR-expression for the trigram index (Chinese, Japanese, Thai … runs of ≥ 3 characters), or null. */
  trigram: string | null
  /** Unsegmented terms shorter than three characters, matched with LIKE. */
  like: string[]
  /** The terms the plan searches for. */
  terms: QueryTerm[]
  /** Every literal string a match may contain (terms and trigram pieces), for marking snippets. */
  highlights: string[]
}

/** At most this many trigram pieces reach SQLite. */
export const MAX_TRIGRAM_PIECES = 64

// The same scripts as UNSEGMENTED_GLOB in the migrations: CJK, kana, Hangul, Thai, Lao, Myanmar, Khmer.
const unsegmentedClass = '[\\u0E00-\\u0EFF\\u1000-\\u109F\\u1780-\\u17FF\\u2E80-\\u9FFF\\uAC00-\\uD7AF\\uF900-\\uFAFF\\uFF66-\\uFF9F\\u{20000}-\\u{3FFFF}]'
const unsegmented = new RegExp(unsegmentedClass, 'u')
const unsegmentedRun = new RegExp(`${unsegmentedClass}+`, 'gu')
// A word, possibly joined by - . _ / \ @ into a compound (chat-send, P2.2, my-app.config.ts, sp_new),
// possibly with an apostrophe suffix (Caroline's, don't), possibly followed by * (prefix search).
const wordPattern = /[\p{L}\p{N}\p{M}]+(?:[-._/\\@][\p{L}\p{N}\p{M}]+)*(?:['’][\p{L}]+)?\*?/gu
// Chinese particles, pronouns and question words glue content words together; splitting a run on
// them leaves the content words. Only ones rarely inside a content word (splitting on 在 would turn
// 在线 into 线).
const unsegmentedStops = /(?:为什么|有没有|是不是|什么|怎么|怎样|如何|哪些|哪个|我们|你们|他们|她们|它们|这个|那个|一下|关于|上次|之前|请问|帮我|的|了|吗|呢|吧|啊|呀)+/u

export function isUnsegmented(text: string): boolean {
  return unsegmented.test(text)
}

/** Builds the FTS5 expressions for a natural-language question (or keywords, or a pasted error). */
export function planSearch(input: string): SearchPlan {
  const terms = extractTerms(foldQuery(input))
  const words = terms.filter((t) => !isUnsegmented(t.text))
  const runs = terms.filter((t) => isUnsegmented(t.text))
  // Segmented words first (exact words, emoji, fullwidth forms: see cjk-query.ts), then substrings.
  const segmented = segmentedQueryPieces(runs.map((t) => t.text), words.filter((t) => !t.phrase && !t.prefix).map((t) => t.text), input)
  const trigramParts = [...new Set([...segmented, ...runs.filter((t) => [...t.text].length >= TRIGRAM_MIN_CHARS).flatMap(trigramPieces)])].slice(
    0,
    MAX_TRIGRAM_PIECES
  )
  return {
    fts: words.length ? words.map(quoteTerm).join(' OR ') : null,
    trigram: trigramParts.length ? trigramParts.map((text) => quoteTerm({ text, phrase: false, prefix: false })).join(' OR ') : null,
    like: runs.filter((t) => [...t.text].length < TRIGRAM_MIN_CHARS).map((t) => t.text),
    terms,
    highlights: [...new Set([...terms.map((t) => t.text), ...trigramParts.map(unmarked)])]
  }
}

/**
 * The sanitised, OR-joined FTS5 expression for `input` ('' when nothing searchable is left).
 * This is what the word index is queried with; exported so its guarantees can be checked directly.
 */
export function sanitizeFtsQuery(input: string): string {
  return planSearch(input).fts ?? ''
}

/** Tokenises, drops stop words (unless nothing else is left) and duplicates, keeps phrases and prefixes. */
export function extractTerms(input: string): QueryTerm[] {
  const text = input.slice(0, MAX_QUERY_CHARS)
  const candidates: Array<QueryTerm & { stop: boolean }> = []
  // Balanced "…" phrases are kept as phrases; an unmatched quote is just a space.
  const phrasePattern = /"([^"]*)"/g
  let last = 0
  for (const match of text.matchAll(phrasePattern)) {
    candidates.push(...wordTerms(text.slice(last, match.index)))
    const inner = wordTerms(match[1]).map((t) => t.text.replace(/\*$/, ''))
    if (inner.length > 1) candidates.push({ text: inner.join(' '), phrase: true, prefix: false, stop: false })
    else if (inner.length === 1) candidates.push({ text: inner[0], phrase: false, prefix: false, stop: false })
    last = match.index + match[0].length
  }
  candidates.push(...wordTerms(text.slice(last).replace(/"/g, ' ')))

  const meaningful = candidates.filter((t) => !t.stop)
  const chosen = meaningful.length ? meaningful : candidates
  const seen = new Set<string>()
  const terms: QueryTerm[] = []
  for (const { text: termText, phrase, prefix } of chosen) {
    const key = `${termText.toLowerCase()}${prefix ? '*' : ''}`
    if (seen.has(key)) continue
    seen.add(key)
    terms.push({ text: termText, phrase, prefix })
    if (terms.length >= MAX_QUERY_TERMS) break
  }
  return terms
}

function wordTerms(text: string): Array<QueryTerm & { stop: boolean }> {
  const out: Array<QueryTerm & { stop: boolean }> = []
  for (const raw of text.match(wordPattern) ?? []) {
    let word = raw.endsWith('*') ? raw.slice(0, -1) : raw
    // A one-letter prefix matches nearly every row: treat it as the letter alone.
    const prefix = raw.endsWith('*') && [...word].length >= 2
    if (isUnsegmented(word)) {
      out.push(...unsegmentedTerms(word))
      continue
    }
    // "Caroline's" searches for Caroline; "don't", "we're" and "I'm" reduce to stop words.
    const apostrophe = word.search(/['’]/)
    if (apostrophe > 0) word = word.slice(0, apostrophe)
    const phrase = /[-._/\\@]/.test(word)
    const lower = word.toLowerCase()
    const stop = !phrase && !prefix && (stopWords.has(lower) || (lower.length === 1 && /\p{L}/u.test(lower)))
    out.push({ text: word, phrase, prefix, stop })
  }
  return out
}

/**
 * Splits a word holding Chinese/Japanese/Thai … into its unsegmented runs (and any Latin part), and
 * each run on particles and question words, so "我们上次讨论的部署问题" yields its content words.
 */
function unsegmentedTerms(word: string): Array<QueryTerm & { stop: boolean }> {
  const out: Array<QueryTerm & { stop: boolean }> = []
  let last = 0
  const pushLatin = (text: string): void => {
    if (text) out.push(...wordTerms(text.replace(/[-._/\\@]+/g, ' ')))
  }
  for (const match of word.matchAll(unsegmentedRun)) {
    pushLatin(word.slice(last, match.index))
    last = match.index + match[0].length
    const pieces = match[0].split(unsegmentedStops).filter((p) => p.length > 0)
    // Single characters match almost everything; keep them only when the run has nothing else.
    const kept = pieces.filter((p) => [...p].length >= 2)
    for (const piece of kept.length ? kept : pieces) out.push({ text: piece, phrase: false, prefix: false, stop: false })
  }
  pushLatin(word.slice(last))
  return out
}

/** One term as an FTS5 string (or prefix query): quoted, so no input is ever FTS5 syntax. */
export function quoteTerm(term: QueryTerm): string {
  if (!term.prefix) return `"${term.text.replace(/"/g, '""')}"`
  return `"${stemSafePrefix(term.text).replace(/"/g, '""')}"*`
}

/**
 * The porter tokenizer stems a prefix before matching it, and rewrites a final y or e ("deploy" →
 * "deploi", which no longer prefixes "deployment" → "deploy"). Dropping that letter keeps the
 * prefix a prefix of every stem the user meant.
 */
export function stemSafePrefix(text: string): string {
  return [...text].length > 3 && /[ye]$/i.test(text) ? text.slice(0, -1) : text
}

/**
 * A run of ≥ 3 characters matches as a whole (best), and through its overlapping trigrams (so a
 * question phrased differently from the message still finds it, ranked by how many pieces match).
 */
function trigramPieces(term: QueryTerm): string[] {
  const chars = [...term.text]
  const pieces = [term.text]
  if (chars.length > TRIGRAM_MIN_CHARS && chars.length <= 12) {
    for (let i = 0; i + TRIGRAM_MIN_CHARS <= chars.length; i++) pieces.push(chars.slice(i, i + TRIGRAM_MIN_CHARS).join(''))
  }
  return pieces
}

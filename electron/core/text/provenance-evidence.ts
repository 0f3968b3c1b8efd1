import {
  MAX_EVIDENCE_CHARS,
  MAX_EVIDENCE_ITEMS,
  MAX_PROVENANCE_SOURCES,
  type Provenance,
  type ReadSource
} from '../../../shared/provenance'

/**
 * Decides where a learned change's content came from by evidence, not by the model's word: the
 * distinctive parts of the content (addresses, paths, commands, rare words, three-word phrases,
 * Chinese and Japanese character pairs) are looked up in what the user said and in what Cairn read
 * (tool results, attached files). Content whose distinctive parts appear in what was read and not in
 * what the user said came from what was read, however the model reworded the rest.
 *
 * Linear in the text added: each text is tokenised once, into sets.
 */

/** Words too common to tell anything, and the words a memory entry is phrased with ("User prefers …"). */
export const STOPWORDS = new Set(
  (
    'the and for are but not you your yours with this that these those from into onto over under about above after before again ' +
    'all any both each few more most other some such only own same than too very can will just should now was were been being ' +
    'have has had having does did doing done get got make made use uses used using want wants wanted like likes liked prefer ' +
    'prefers preferred preference always never every user users they them their there here what which who whom when where why ' +
    'how its it’s also would could must may might shall one two via per etc let lets please thanks thank remember note notes ' +
    'keep kept save saved permanently important instead rather then else yes okay'
  ).split(' ')
)

const URL = /\b(?:https?|ftp|wss?|git|ssh|sftp):\/\/[^\s<>"'`)\]]+/gi
const HOST = /\b(?:[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+(?:[a-z]{2,24})\b/gi
const EMAIL = /\b[\w.+-]+@[\w-]+(?:\.[\w-]+)+\b/g
const PATH = /(?:~|\.{1,2})?\/[\w.@%+=:,~-]+(?:\/[\w.@%+=:,~-]+)+/g
const IPV4 = /\b(?:\d{1,3}\.){3}\d{1,3}\b/g
const CODE_SPAN = /`([^`\n]{4,200})`/g
const CJK = /[\u3040-\u30FF\u3400-\u4DBF\u4E00-\u9FFF\uAC00-\uD7AF\uF900-\uFAFF]/u
const TOKEN = /[\p{L}\p{N}_]+/gu
/** File name endings that make "readme.md" look like a host: such a match is a file, not an address. */
const FILE_ENDINGS = /\.(?:md|txt|json|ya?ml|toml|js|ts|tsx|jsx|py|rb|go|rs|sh|lock|cfg|ini|html?|css|csv|log|env|pdf|png|jpe?g)$/i

interface Token {
  /** As written (for showing it). */
  word: string
  /** Folded and lightly stemmed, for matching. */
  term: string
  /** Where it stands in the folded text (for showing a phrase as written, small words included). */
  start: number
  end: number
}

function fold(text: string): string {
  return text.normalize('NFKC').toLowerCase()
}

/** A light English stemmer: enough that "mirrored", "mirrors" and "mirroring" meet (skill hints and similar memory entries use it too). */
export function stem(word: string): string {
  if (word.length <= 4) return word
  for (const suffix of ['ingly', 'edly', 'ing', 'ies', 'ied', 'ed', 'es', 's', 'ly']) {
    if (word.endsWith(suffix) && word.length - suffix.length >= 3) {
      const base = word.slice(0, -suffix.length)
      return suffix === 'ies' || suffix === 'ied' ? `${base}y` : base.replace(/(.)\1$/, '$1')
    }
  }
  return word
}

/** Distinctive tokens of a text: rare-enough Latin words (stemmed) and CJK character pairs. */
function tokensOf(text: string): Token[] {
  const tokens: Token[] = []
  for (const match of fold(text).matchAll(TOKEN)) {
    const word = match[0]
    const start = match.index ?? 0
    if (CJK.test(word)) {
      const chars = [...word].filter((char) => CJK.test(char))
      for (let index = 0; index + 1 < chars.length; index++) {
        const pair = chars[index] + chars[index + 1]
        tokens.push({ word: pair, term: pair, start, end: start + word.length })
      }
      continue
    }
    if (word.length < 3 || STOPWORDS.has(word) || /^\d{1,2}$/.test(word)) continue
    tokens.push({ word, term: stem(word), start, end: start + word.length })
  }
  return tokens
}

/** Addresses, hosts, e-mails, paths, IPs and code spans: a match of one of these is strong evidence. */
function atomsOf(text: string): string[] {
  const folded = fold(text)
  const atoms = new Set<string>()
  for (const pattern of [URL, EMAIL, PATH, IPV4]) for (const match of folded.matchAll(pattern)) atoms.add(trimAtom(match[0]))
  for (const match of folded.matchAll(HOST)) if (!FILE_ENDINGS.test(match[0])) atoms.add(match[0])
  for (const match of folded.matchAll(CODE_SPAN)) atoms.add(match[1].trim())
  return [...atoms].filter((atom) => atom.length >= 4)
}

function trimAtom(atom: string): string {
  return atom.replace(/[.,;:!?]+$/, '')
}

/** Three distinctive words in a row, keyed by their terms; shown as they stand in `folded` when given. */
function shinglesOf(tokens: Token[], folded?: string): Map<string, string> {
  const shingles = new Map<string, string>()
  for (let index = 0; index + 2 < tokens.length; index++) {
    const [a, b, c] = [tokens[index], tokens[index + 1], tokens[index + 2]]
    const key = `${a.term} ${b.term} ${c.term}`
    if (shingles.has(key)) continue
    const written = folded && c.end - a.start <= MAX_EVIDENCE_CHARS ? folded.slice(a.start, c.end).replace(/\s+/g, ' ') : `${a.word} ${b.word} ${c.word}`
    shingles.set(key, written)
  }
  return shingles
}

interface IndexedText {
  folded: string
  terms: Set<string>
  shingles: Set<string>
}

/** Texts past this are indexed by their first part only (a huge tool output costs more than it tells). */
const MAX_INDEXED_CHARS = 200_000

function indexText(text: string): IndexedText {
  const cut = text.length > MAX_INDEXED_CHARS ? text.slice(0, MAX_INDEXED_CHARS) : text
  const tokens = tokensOf(cut)
  return { folded: fold(cut), terms: new Set(tokens.map((token) => token.term)), shingles: new Set(shinglesOf(tokens).keys()) }
}

interface ReadEntry extends IndexedText {
  source: ReadSource
}

/**
 * What one conversation offers as evidence: what the user said, and what was read (each with where it
 * came from). Texts are added as the conversation goes; `judge` can run at any point.
 */
/** Texts of one kind (what was said, what was done), indexed together: their folded text, terms and phrases. */
class TextPool {
  private readonly texts: IndexedText[] = []
  readonly terms = new Set<string>()
  readonly shingles = new Set<string>()

  add(text: string): void {
    if (!text.trim()) return
    const indexed = indexText(text)
    this.texts.push(indexed)
    for (const term of indexed.terms) this.terms.add(term)
    for (const shingle of indexed.shingles) this.shingles.add(shingle)
  }

  /** Whether one of the texts holds `atom` as written (folded). */
  holds(atom: string): boolean {
    return this.texts.some((text) => text.folded.includes(atom))
  }
}

export class ProvenanceEvidence {
  private readonly said = new TextPool()
  private readonly read: ReadEntry[] = []
  /** The commands the assistant ran: what it did, not what it read. */
  private readonly done = new TextPool()

  addSaid(text: string): void {
    this.said.add(text)
  }

  /**
   * A command the assistant ran: a procedure it carried out is its own experience, so a skill naming
   * those steps is not content it read.
   */
  addDone(text: string): void {
    this.done.add(text)
  }

  addRead(text: string, source: ReadSource): void {
    if (!text.trim()) return
    this.read.push({ ...indexText(text), source })
  }

  /** How many texts were read (tests, logs). */
  get readCount(): number {
    return this.read.length
  }

  /**
   * Where `content` came from: what was read, the user's words, or the assistant's own. With
   * `ownActions` (a procedure: a skill), what the assistant itself did in the conversation is its own,
   * not read, even where a README or a command's output also holds it; a fact about the user or the
   * environment (memory) gets no such allowance.
   */
  judge(content: string, options: { ownActions?: boolean } = {}): Provenance {
    const own = options.ownActions === true
    const didIt = (atom: string) => own && this.done.holds(atom)
    const tokens = tokensOf(content)
    const terms = new Set(tokens.map((token) => token.term))
    const hits = new Map<ReadEntry, number>()
    const hit = (entry: ReadEntry, weight: number) => hits.set(entry, (hits.get(entry) ?? 0) + weight)
    const evidence: string[] = []

    // Strong: an address, path or command the user never wrote, found in what was read.
    let atomHits = 0
    for (const atom of atomsOf(content)) {
      if (this.said.holds(atom) || didIt(atom)) continue
      const found = this.read.filter((entry) => entry.folded.includes(atom))
      if (found.length === 0) continue
      atomHits++
      evidence.push(atom)
      for (const entry of found) hit(entry, 10)
    }
    // Phrases: three distinctive words in a row, as they stand in what was read and not in what was said.
    let phraseHits = 0
    for (const [key, words] of shinglesOf(tokens, fold(content))) {
      if (this.said.shingles.has(key) || (own && this.isOwnPhrase(key))) continue
      const found = this.read.filter((entry) => entry.shingles.has(key))
      if (found.length === 0) continue
      phraseHits++
      if (evidence.length < MAX_EVIDENCE_ITEMS) evidence.push(words)
      for (const entry of found) hit(entry, 3)
    }
    // Words: distinctive words the user never used but that stand in what was read.
    let readOnly = 0
    let saidCount = 0
    for (const term of terms) {
      if (this.said.terms.has(term)) {
        saidCount++
        continue
      }
      if (own && this.done.terms.has(term)) continue
      const found = this.read.filter((entry) => entry.terms.has(term))
      if (found.length === 0) continue
      readOnly++
      for (const entry of found) hit(entry, 1)
    }

    // A short entry has few words to go on: two distinctive words found only in what was read, making
    // half of it, are enough ("User prefers Klingon answers" after a page saying so).
    const fromRead =
      atomHits > 0 ||
      (phraseHits >= 1 && readOnly >= 2) ||
      (readOnly >= 2 && readOnly > saidCount && readOnly >= terms.size / 2) ||
      (readOnly >= 3 && readOnly >= terms.size / 3 && readOnly > saidCount)
    if (fromRead) {
      const sources = [...hits.entries()]
        .sort((a, b) => b[1] - a[1])
        .slice(0, MAX_PROVENANCE_SOURCES)
        .map(([entry]) => entry.source)
      return { origin: 'read', sources: dedupeSources(sources), evidence: evidence.slice(0, MAX_EVIDENCE_ITEMS).map(cutEvidence) }
    }
    if (terms.size > 0 && saidCount >= Math.max(1, terms.size / 2)) return { origin: 'user' }
    return { origin: 'model' }
  }

  /** A phrase of the assistant's own doing: it stands in its actions, or two of its three words do ("run ./push-image.sh"). */
  private isOwnPhrase(key: string): boolean {
    if (this.done.shingles.has(key)) return true
    return key.split(' ').filter((term) => this.done.terms.has(term)).length >= 2
  }
}

function dedupeSources(sources: ReadSource[]): ReadSource[] {
  const seen = new Set<string>()
  return sources.filter((source) => {
    const key = `${source.kind}\u0000${source.label}\u0000${source.tool ?? ''}`
    if (seen.has(key)) return false
    seen.add(key)
    return true
  })
}

function cutEvidence(text: string): string {
  return text.length > MAX_EVIDENCE_CHARS ? `${text.slice(0, MAX_EVIDENCE_CHARS - 1)}…` : text
}

/**
 * A matcher whose cost is linear in the text length for every rule, whatever the input.
 *
 * A JS regex such as `curl\s+[^\n]{0,2048}\$KEY` backtracks up to 2,048 characters after every
 * "curl", so "curl curl curl …" costs O(n × 2048). Here a rule is instead a chain of *simple terms*
 * (small regexes without nested or wide quantifiers, each found by one global scan) joined by *gaps*
 * (at most N filler words, or at most N characters free of a stop character). Chains are linked with
 * monotone pointers over the sorted term hits and prefix counts over the text, so a rule costs
 * O(text + hits) no matter how the hits are arranged.
 */

/** `\s+(?:\w+\s+){0,max}` between two terms: whitespace, then at most `max` filler words. */
export interface WordsGap {
  readonly kind: 'words'
  readonly max: number
}

/** At most `max` characters, none of them `stop`; optionally starting and/or ending with whitespace. */
export interface CharsGap {
  readonly kind: 'chars'
  readonly max: number
  readonly stop: string
  readonly spaceFirst: boolean
  readonly spaceLast: boolean
}

export type Gap = WordsGap | CharsGap

/** Terms and the gaps between them: `terms.length === gaps.length + 1`. */
export interface Chain {
  readonly terms: readonly RegExp[]
  readonly gaps: readonly Gap[]
}

export function words(max: number): WordsGap {
  return { kind: 'words', max }
}

export function chars(max: number, stop: string, spaces: { first?: boolean; last?: boolean } = {}): CharsGap {
  return { kind: 'chars', max, stop, spaceFirst: spaces.first ?? false, spaceLast: spaces.last ?? false }
}

/** Builds a chain from alternating terms and gaps: `chain(/a/, words(8), /b/)`. */
export function chain(...parts: readonly (RegExp | Gap)[]): Chain {
  const terms: RegExp[] = []
  const gaps: Gap[] = []
  parts.forEach((part, i) => {
    const wantTerm = i % 2 === 0
    if (wantTerm !== part instanceof RegExp) throw new Error(`chain: part ${i} must be a ${wantTerm ? 'term' : 'gap'}`)
    if (part instanceof RegExp) terms.push(simpleTerm(part))
    else gaps.push(part)
  })
  if (terms.length === 0 || terms.length !== gaps.length + 1) throw new Error('chain: must start and end with a term')
  return { terms, gaps }
}

/**
 * Rejects a term that could backtrack beyond the run of characters it is scanning: a quantified group
 * (`(…)*`, `(…)+`, `(…){n,m}`), a wide bounded repeat or a dot-star. A term like `\w*(?:key|token)` may
 * still retry inside one word, but each word is scanned from one start only, so the total stays linear.
 */
export function simpleTerm(term: RegExp): RegExp {
  const source = term.source
  const wideRepeat = /\{\d+,(\d*)\}/g
  for (const match of source.matchAll(wideRepeat)) {
    if (match[1] === '' || Number(match[1]) > 64) throw new Error(`threat term /${source}/ has a wide repeat`)
  }
  if (/\)[*+{]/.test(source) || /\.[*+{]/.test(source)) throw new Error(`threat term /${source}/ repeats a group`)
  if (term.flags.replace(/[gu]/g, '') !== '') throw new Error(`threat term /${source}/ must be lower-case without flags`)
  return new RegExp(source, 'g')
}

interface Hits {
  readonly starts: number[]
  readonly ends: number[]
}

export interface Endpoints {
  /** Where the partial match ends, ascending. */
  readonly ends: number[]
  /** Where the partial match that ends there starts (the earliest one). */
  readonly origins: number[]
}

interface WordIndex {
  /** `lastOther[b]`: the last offset before `b` holding neither a word character nor whitespace, or -1. */
  readonly lastOther: Int32Array
  /** `wordsBefore[b]`: how many words start before `b`. */
  readonly wordsBefore: Int32Array
  /** Offset of each word start, ascending. */
  readonly wordStarts: Int32Array
}

const OTHER = 0
const WORD = 1
const SPACE = 2

const asciiClasses = (() => {
  const table = new Uint8Array(128)
  for (let code = 0; code < 128; code++) {
    const ch = String.fromCharCode(code)
    table[code] = /\w/.test(ch) ? WORD : /\s/.test(ch) ? SPACE : OTHER
  }
  return table
})()

let bmpClasses: Uint8Array | null = null

/** Python's `\w`/`\s` are Unicode-aware; so is this table (built once, on the first non-ASCII text). */
function bmpClassTable(): Uint8Array {
  if (bmpClasses) return bmpClasses
  const table = new Uint8Array(65536)
  const word = /[\p{L}\p{N}\p{M}_]/u
  for (let code = 0; code < 65536; code++) {
    if (code < 128) table[code] = asciiClasses[code]
    else if (code >= 0xd800 && code <= 0xdfff) table[code] = WORD
    else {
      const ch = String.fromCharCode(code)
      table[code] = word.test(ch) ? WORD : /\s/.test(ch) ? SPACE : OTHER
    }
  }
  bmpClasses = table
  return table
}

/** Finds rules in one (already folded) text. Term hits and prefix counts are shared between rules. */
export class ChainMatcher {
  private readonly hitsBySource = new Map<string, Hits>()
  private readonly lastStopBefore = new Map<string, Int32Array>()
  private classes: Uint8Array | null = null
  private words: WordIndex | null = null

  constructor(private readonly text: string) {}

  /** Offset where the leftmost match of `rule` starts, or -1. */
  firstMatch(rule: Chain): number {
    const { origins } = this.matches(rule)
    if (origins.length === 0) return -1
    let first = origins[0]
    for (const origin of origins) if (origin < first) first = origin
    return first
  }

  /**
   * Every place `rule` matches: each offset where a match can end (ascending), with the earliest
   * offset where a match ending there starts. Same cost as `firstMatch`.
   */
  matches(rule: Chain): Endpoints {
    // A cheap presence test first: a repeated early term ("ignore ignore …") is never collected when a later one is missing.
    if (!rule.terms.every((term) => this.occurs(term))) return { ends: [], origins: [] }
    const termHits = rule.terms.map((term) => this.hitsOf(term))
    let endpoints: Endpoints = { ends: termHits[0].ends, origins: termHits[0].starts }
    for (let i = 1; i < termHits.length; i++) {
      endpoints = this.link(endpoints, rule.gaps[i - 1], termHits[i])
      if (endpoints.ends.length === 0) break
    }
    return endpoints
  }

  private occurs(term: RegExp): boolean {
    const cached = this.hitsBySource.get(term.source)
    if (cached) return cached.starts.length > 0
    term.lastIndex = 0
    const found = term.test(this.text)
    if (!found) this.hitsBySource.set(term.source, { starts: [], ends: [] })
    return found
  }

  private hitsOf(term: RegExp): Hits {
    const cached = this.hitsBySource.get(term.source)
    if (cached) return cached
    const starts: number[] = []
    const ends: number[] = []
    term.lastIndex = 0
    for (let match = term.exec(this.text); match !== null; match = term.exec(this.text)) {
      starts.push(match.index)
      ends.push(match.index + match[0].length)
      if (match[0].length === 0) term.lastIndex++
    }
    const hits = { starts, ends }
    this.hitsBySource.set(term.source, hits)
    return hits
  }

  /**
   * Extends partial matches by one gap and one term. For each hit (ascending start `b`) the valid
   * partial-match ends lie in a window [low(b), high(b)] whose bounds never move left as `b` grows,
   * so one pointer feeds the window and a monotone deque yields the earliest origin in it.
   */
  private link(previous: Endpoints, gap: Gap, next: Hits): Endpoints {
    const ends: number[] = []
    const origins: number[] = []
    const spaceFirst = gap.kind === 'words' || gap.spaceFirst
    const spaceLast = gap.kind === 'words' || gap.spaceLast
    const minLength = spaceFirst || spaceLast ? 1 : 0
    const lowest = this.gapStartBound(gap)
    const previousEnds = previous.ends
    const previousOrigins = previous.origins
    const textLength = this.text.length
    const deque = new Int32Array(previousEnds.length)
    let head = 0
    let tail = 0
    let fed = 0
    for (let k = 0; k < next.starts.length; k++) {
      const b = next.starts[k]
      if (spaceLast && (b === 0 || this.classAt(b - 1) !== SPACE)) continue
      const high = b - minLength
      while (fed < previousEnds.length && previousEnds[fed] <= high) {
        const end = previousEnds[fed]
        if (!spaceFirst || (end < textLength && this.classAt(end) === SPACE)) {
          const origin = previousOrigins[fed]
          while (tail > head && previousOrigins[deque[tail - 1]] >= origin) tail--
          deque[tail++] = fed
        }
        fed++
      }
      const low = lowest(b)
      while (tail > head && previousEnds[deque[head]] < low) head++
      if (tail > head) {
        ends.push(next.ends[k])
        origins.push(previousOrigins[deque[head]])
      }
    }
    return { ends, origins }
  }

  /** For a gap ending at `b`: the smallest start `a` whose span [a, b) can satisfy the gap's own limits. */
  private gapStartBound(gap: Gap): (b: number) => number {
    if (gap.kind === 'chars') {
      const lastStop = this.lastStop(gap.stop)
      const max = gap.max
      return (b) => Math.max(b - max, lastStop[b] + 1)
    }
    const { lastOther, wordsBefore, wordStarts } = this.wordIndex()
    const max = gap.max
    return (b) => {
      const mustSkip = wordsBefore[b] - max
      const afterWordLimit = mustSkip >= 1 ? wordStarts[mustSkip - 1] + 1 : 0
      return Math.max(lastOther[b] + 1, afterWordLimit)
    }
  }

  private classAt(index: number): number {
    const code = this.text.charCodeAt(index)
    if (code < 128) return asciiClasses[code]
    this.classes ??= bmpClassTable()
    return this.classes[code]
  }

  /** `result[b]` = index of the last `stop` character before `b`, or -1. */
  private lastStop(stop: string): Int32Array {
    let table = this.lastStopBefore.get(stop)
    if (table) return table
    const code = stop.charCodeAt(0)
    const n = this.text.length
    table = new Int32Array(n + 1)
    let last = -1
    for (let i = 0; i < n; i++) {
      table[i] = last
      if (this.text.charCodeAt(i) === code) last = i
    }
    table[n] = last
    this.lastStopBefore.set(stop, table)
    return table
  }

  /** Prefix counts for word gaps: last non-word non-space character, and word starts, before each offset. */
  private wordIndex(): WordIndex {
    if (this.words) return this.words
    const n = this.text.length
    const lastOther = new Int32Array(n + 1)
    const wordsBefore = new Int32Array(n + 1)
    const starts = new Int32Array(n)
    let count = 0
    let last = -1
    let previousClass = OTHER
    for (let i = 0; i < n; i++) {
      lastOther[i] = last
      wordsBefore[i] = count
      const cls = this.classAt(i)
      if (cls === OTHER) last = i
      else if (cls === WORD && previousClass !== WORD) starts[count++] = i
      previousClass = cls
    }
    lastOther[n] = last
    wordsBefore[n] = count
    this.words = { lastOther, wordsBefore, wordStarts: starts.subarray(0, count) }
    return this.words
  }
}

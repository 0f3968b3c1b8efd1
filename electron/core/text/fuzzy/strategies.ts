import {
  asciiPunctuation,
  collapseBlanks,
  hasTypographicPunctuation,
  splitLines,
  toOriginal,
  type Span
} from './text-map'
import { onTokenBoundaries } from './token-boundaries'

/**
 * Equivalence strategies: each finds the places whose text *equals* the pattern once both are
 * normalised the same way (indentation, whitespace runs, escapes, typographic punctuation). None of
 * them looks at similarity, so none can pick a line the model did not quote.
 */
export interface Found {
  readonly strategy: string
  /** Non-overlapping, ascending. */
  readonly spans: readonly Span[]
  /** The pattern as the strategy read it (escapes decoded for `escape_normalized`). */
  readonly pattern: string
}

/**
 * Every strategy keeps only matches on token boundaries (see token-boundaries.ts) unless `bounded`
 * is false, which is used only to explain a refusal ("old_string occurs only inside longer words").
 */
type Finder = (text: string, pattern: string, bounded: boolean) => Span[]

/**
 * Non-overlapping occurrences, like String.prototype.replaceAll ("aa" in "aa aa" → 2). With
 * `bounded`, an occurrence inside a longer token is skipped one character at a time, so it cannot
 * hide a good occurrence that overlaps it.
 */
export function exactSpans(text: string, pattern: string, bounded = true): Span[] {
  const spans: Span[] = []
  if (pattern.length === 0) return spans
  for (let at = text.indexOf(pattern); at !== -1; ) {
    const span = { start: at, end: at + pattern.length }
    const keep = !bounded || onTokenBoundaries(text, pattern, span)
    if (keep) spans.push(span)
    at = text.indexOf(pattern, keep ? span.end : at + 1)
  }
  return spans
}

/** Windows of whole lines whose canonical forms equal the pattern's lines, one by one. */
function lineWindows(text: string, pattern: string, bounded: boolean, canonical: (line: string) => string): Span[] {
  const wanted = pattern.split('\n').map(canonical)
  const lines = splitLines(text)
  const have = lines.map((line) => canonical(line.text))
  const spans: Span[] = []
  for (let i = 0; i + wanted.length <= have.length; ) {
    let j = 0
    while (j < wanted.length && have[i + j] === wanted[j]) j++
    const span = { start: lines[i].start, end: lines[i + wanted.length - 1].end }
    // Whole lines sit on token boundaries by construction; the check only matters for a next line opening with a combining mark.
    if (j === wanted.length && (!bounded || onTokenBoundaries(text, pattern, span))) {
      spans.push(span)
      i += wanted.length
    } else i++
  }
  return spans
}

const lineTrimmed: Finder = (text, pattern, bounded) => lineWindows(text, pattern, bounded, (line) => line.trim())

/** Per line: indentation and trailing whitespace ignored, inner runs of blanks read as one space. */
const lineNormalized: Finder = (text, pattern, bounded) =>
  lineWindows(text, pattern, bounded, (line) => line.trim().replace(/[ \t]+/g, ' '))

/**
 * Runs of spaces/tabs read as one space; a match ending in a space takes the file's whole run.
 * Boundaries are checked in the collapsed text: collapsing blanks turns no character into a word character or back.
 */
const whitespaceNormalized: Finder = (text, pattern, bounded) => {
  const mappedText = collapseBlanks(text)
  const mappedPattern = collapseBlanks(pattern).text
  if (mappedText.text === text && mappedPattern === pattern) return []
  return exactSpans(mappedText.text, mappedPattern, bounded).map((span) => toOriginal(mappedText, span))
}

const plainFinders: readonly (readonly [string, Finder])[] = [
  ['exact', exactSpans],
  ['line_trimmed', lineTrimmed],
  ['whitespace_normalized', whitespaceNormalized],
  ['line_normalized', lineNormalized]
]

/**
 * Literal `\n`, `\t`, `\r` typed by the model where the file has the real characters, and quotes that
 * picked up a backslash in transport (`don\'t`); the latter is then refused by the escape-drift guard
 * when new_string carries the same backslashes, instead of being written into the file.
 */
function escapeNormalized(text: string, pattern: string, bounded: boolean): Found | null {
  if (!/\\[ntr'"]/.test(pattern)) return null
  let decoded = pattern
    .replaceAll('\\n', '\n')
    .replaceAll('\\t', '\t')
    .replaceAll('\\r', '\r')
    .replaceAll("\\'", "'")
    .replaceAll('\\"', '"')
  if (!text.includes('\r')) decoded = decoded.replaceAll('\r\n', '\n')
  for (const [, find] of plainFinders.slice(0, 2)) {
    const spans = find(text, decoded, bounded)
    if (spans.length > 0) return { strategy: 'escape_normalized', spans, pattern: decoded }
  }
  return null
}

/**
 * Smart quotes, dashes, ellipsis and NBSP equal to their ASCII spelling, combined with the plain strategies.
 * Boundaries are checked in the ASCII spelling: every character it rewrites is punctuation or a space, before and after.
 */
function unicodeNormalized(text: string, pattern: string, bounded: boolean): Found | null {
  if (!hasTypographicPunctuation(text) && !hasTypographicPunctuation(pattern)) return null
  const mappedText = asciiPunctuation(text)
  const asciiPattern = asciiPunctuation(pattern).text
  for (const [, find] of plainFinders) {
    const spans = find(mappedText.text, asciiPattern, bounded)
    if (spans.length > 0) {
      return { strategy: 'unicode_normalized', spans: spans.map((span) => toOriginal(mappedText, span)), pattern }
    }
  }
  return null
}

/**
 * The first strategy that finds at least one match on token boundaries decides; `null` when none
 * does. `tokenBoundaries: false` also counts matches inside longer tokens, only to explain a refusal.
 */
export function findEquivalent(text: string, pattern: string, tokenBoundaries = true): Found | null {
  for (const [strategy, find] of plainFinders) {
    const spans = find(text, pattern, tokenBoundaries)
    if (spans.length > 0) return { strategy, spans, pattern }
  }
  return escapeNormalized(text, pattern, tokenBoundaries) ?? unicodeNormalized(text, pattern, tokenBoundaries)
}

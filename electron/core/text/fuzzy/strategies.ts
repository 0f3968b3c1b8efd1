import {
  asciiPunctuation,
  collapseBlanks,
  hasTypographicPunctuation,
  splitLines,
  toOriginal,
  type Span
} from './text-map'

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

type Finder = (text: string, pattern: string) => Span[]

/** Non-overlapping occurrences, like String.prototype.replaceAll ("aa" in "aaaa" → 2). */
export function exactSpans(text: string, pattern: string): Span[] {
  const spans: Span[] = []
  if (pattern.length === 0) return spans
  for (let at = text.indexOf(pattern); at !== -1; at = text.indexOf(pattern, at + pattern.length)) {
    spans.push({ start: at, end: at + pattern.length })
  }
  return spans
}

/** Windows of whole lines whose canonical forms equal the pattern's lines, one by one. */
function lineWindows(text: string, pattern: string, canonical: (line: string) => string): Span[] {
  const wanted = pattern.split('\n').map(canonical)
  const lines = splitLines(text)
  const have = lines.map((line) => canonical(line.text))
  const spans: Span[] = []
  for (let i = 0; i + wanted.length <= have.length; ) {
    let j = 0
    while (j < wanted.length && have[i + j] === wanted[j]) j++
    if (j === wanted.length) {
      spans.push({ start: lines[i].start, end: lines[i + wanted.length - 1].end })
      i += wanted.length
    } else i++
  }
  return spans
}

const lineTrimmed: Finder = (text, pattern) => lineWindows(text, pattern, (line) => line.trim())

/** Per line: indentation and trailing whitespace ignored, inner runs of blanks read as one space. */
const lineNormalized: Finder = (text, pattern) =>
  lineWindows(text, pattern, (line) => line.trim().replace(/[ \t]+/g, ' '))

/** Runs of spaces/tabs read as one space; a match ending in a space takes the file's whole run. */
const whitespaceNormalized: Finder = (text, pattern) => {
  const mappedText = collapseBlanks(text)
  const mappedPattern = collapseBlanks(pattern).text
  if (mappedText.text === text && mappedPattern === pattern) return []
  return exactSpans(mappedText.text, mappedPattern).map((span) => toOriginal(mappedText, span))
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
function escapeNormalized(text: string, pattern: string): Found | null {
  if (!/\\[ntr'"]/.test(pattern)) return null
  let decoded = pattern
    .replaceAll('\\n', '\n')
    .replaceAll('\\t', '\t')
    .replaceAll('\\r', '\r')
    .replaceAll("\\'", "'")
    .replaceAll('\\"', '"')
  if (!text.includes('\r')) decoded = decoded.replaceAll('\r\n', '\n')
  for (const [, find] of plainFinders.slice(0, 2)) {
    const spans = find(text, decoded)
    if (spans.length > 0) return { strategy: 'escape_normalized', spans, pattern: decoded }
  }
  return null
}

/** Smart quotes, dashes, ellipsis and NBSP equal to their ASCII spelling, combined with the plain strategies. */
function unicodeNormalized(text: string, pattern: string): Found | null {
  if (!hasTypographicPunctuation(text) && !hasTypographicPunctuation(pattern)) return null
  const mappedText = asciiPunctuation(text)
  const asciiPattern = asciiPunctuation(pattern).text
  for (const [, find] of plainFinders) {
    const spans = find(mappedText.text, asciiPattern)
    if (spans.length > 0) {
      return { strategy: 'unicode_normalized', spans: spans.map((span) => toOriginal(mappedText, span)), pattern }
    }
  }
  return null
}

/** The first strategy that finds at least one match decides; `null` when none does. */
export function findEquivalent(text: string, pattern: string): Found | null {
  for (const [strategy, find] of plainFinders) {
    const spans = find(text, pattern)
    if (spans.length > 0) return { strategy, spans, pattern }
  }
  return escapeNormalized(text, pattern) ?? unicodeNormalized(text, pattern)
}

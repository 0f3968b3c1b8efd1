import { asciiPunctuation, isBlank, lineNumberAt, splitLines, type Line, type Span } from './text-map'

/**
 * Similarity is used only to *show* the model where it probably meant to edit, never to edit:
 * a line that is 90% similar is still a different line.
 */
export interface Region {
  /** 0-based index of the first and last line of the region. */
  readonly firstLine: number
  readonly lastLine: number
  /** 0..1 */
  readonly similarity: number
}

const MIN_SIMILARITY = 0.3
/** Line pairs compared per window are sampled above this much work, to stay fast on big files. */
const MAX_PAIRS = 200_000
const MAX_SAMPLED_LINES = 16

function canonical(line: string): string {
  return asciiPunctuation(line).text.trim().replace(/\s+/g, ' ').toLowerCase()
}

/** Sorted character bigrams (a one-character line is its own "bigram"). */
function bigrams(text: string): Int32Array {
  if (text.length < 2) return Int32Array.from(text.length === 1 ? [text.charCodeAt(0)] : [])
  const grams = new Int32Array(text.length - 1)
  for (let i = 0; i < grams.length; i++) grams[i] = (text.charCodeAt(i) << 16) | text.charCodeAt(i + 1)
  return grams.sort()
}

/** Dice coefficient over bigram multisets: 1 for equal lines, 0 for nothing in common. */
function dice(a: Int32Array, b: Int32Array): number {
  if (a.length === 0 && b.length === 0) return 1
  if (a.length === 0 || b.length === 0) return 0
  let i = 0
  let j = 0
  let common = 0
  while (i < a.length && j < b.length) {
    if (a[i] === b[j]) {
      common++
      i++
      j++
    } else if (a[i] < b[j]) i++
    else j++
  }
  return (2 * common) / (a.length + b.length)
}

/** The regions of `text` most similar to `pattern`, best first, not overlapping, at most `limit`. */
export function closestRegions(text: string, pattern: string, limit = 3): Region[] {
  const fileLines = splitLines(text).map((line) => canonical(line.text))
  const patternLines = pattern.split('\n').map(canonical)
  const size = Math.min(patternLines.length, fileLines.length)
  const windows = fileLines.length - size + 1
  const fileGrams = fileLines.map(bigrams)
  const patternGrams = patternLines.map(bigrams)
  const sampled = sampleIndexes(size, windows * size > MAX_PAIRS ? MAX_SAMPLED_LINES : size)
  const weights = sampled.map((j) => Math.max(patternLines[j].length, 1))
  const scored: Region[] = []
  for (let i = 0; i < windows; i++) {
    let total = 0
    let weightSum = 0
    sampled.forEach((j, n) => {
      const weight = Math.max(weights[n], fileLines[i + j].length)
      total += weight * dice(fileGrams[i + j], patternGrams[j])
      weightSum += weight
    })
    const similarity = weightSum === 0 ? 0 : total / weightSum
    if (similarity >= MIN_SIMILARITY && !isBlankWindow(fileLines, i, size)) {
      scored.push({ firstLine: i, lastLine: i + size - 1, similarity })
    }
  }
  scored.sort((a, b) => b.similarity - a.similarity || a.firstLine - b.firstLine)
  const chosen: Region[] = []
  for (const region of scored) {
    if (chosen.length >= limit) break
    if (chosen.some((other) => region.firstLine <= other.lastLine && other.firstLine <= region.lastLine)) continue
    chosen.push(region)
  }
  return chosen
}

function isBlankWindow(lines: readonly string[], first: number, size: number): boolean {
  for (let i = first; i < first + size; i++) if (lines[i] !== '') return false
  return true
}

function sampleIndexes(size: number, count: number): number[] {
  if (count >= size) return Array.from({ length: size }, (_, i) => i)
  const step = (size - 1) / (count - 1)
  return [...new Set(Array.from({ length: count }, (_, i) => Math.round(i * step)))]
}

/** A region with two lines of context, numbered like an editor (`>` marks the region's lines). */
export function formatRegion(text: string, region: Region, label = `${Math.round(region.similarity * 100)}% similar`): string {
  const context = 2
  const lines = splitLines(text)
  // A final newline ends the last line; it does not start an empty one.
  const lastLine = text.endsWith('\n') && lines.length > 1 ? lines.length - 2 : lines.length - 1
  const first = Math.max(0, region.firstLine - context)
  const last = Math.max(Math.min(lastLine, region.lastLine + context), region.lastLine)
  const width = String(last + 1).length
  const body = numberedLines(lines, first, last, width, region)
  const range = region.firstLine === region.lastLine ? `line ${region.firstLine + 1}` : `lines ${region.firstLine + 1}-${region.lastLine + 1}`
  return `${range} (${label}):\n${body}`
}

function numberedLines(lines: readonly Line[], first: number, last: number, width: number, marked: Region): string {
  const out: string[] = []
  for (let i = first; i <= last; i++) {
    const mark = i >= marked.firstLine && i <= marked.lastLine ? '>' : ' '
    out.push(`${mark}${String(i + 1).padStart(width)}| ${lines[i].text}`)
  }
  return out.join('\n')
}

/** `L<n>: snippet` for each match: the number and text of the file line where its first non-blank line is. */
export function matchLocations(text: string, spans: readonly Span[]): string[] {
  const lines = splitLines(text)
  return spans.map((span) => {
    const regionLines = text.slice(span.start, span.end).split('\n')
    const firstContent = Math.max(regionLines.findIndex((line) => !isBlank(line)), 0)
    const index = lineNumberAt(text, span.start) - 1 + firstContent
    const snippet = lines[index].text.trim()
    return `L${index + 1}: ${snippet.length > 80 ? `${snippet.slice(0, 77)}...` : snippet}`
  })
}

/** A matched span as a region (for showing ambiguous matches with their context). */
export function spanRegion(text: string, span: Span): Region {
  const firstLine = lineNumberAt(text, span.start) - 1
  const lastLine = lineNumberAt(text, Math.max(span.start, span.end - 1)) - 1
  return { firstLine, lastLine, similarity: 1 }
}

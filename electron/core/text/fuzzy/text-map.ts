/** A half-open range of offsets into a text. */
export interface Span {
  readonly start: number
  readonly end: number
}

export interface Line {
  readonly start: number
  /** Offset of the line's end, before its `\n`. */
  readonly end: number
  readonly text: string
}

export function splitLines(text: string): Line[] {
  const lines: Line[] = []
  let start = 0
  for (;;) {
    const newline = text.indexOf('\n', start)
    const end = newline === -1 ? text.length : newline
    lines.push({ start, end, text: text.slice(start, end) })
    if (newline === -1) return lines
    start = newline + 1
  }
}

/** 1-based line number of `offset`. */
export function lineNumberAt(text: string, offset: number): number {
  let line = 1
  for (let i = text.indexOf('\n'); i !== -1 && i < offset; i = text.indexOf('\n', i + 1)) line++
  return line
}

/**
 * A rewritten text that remembers where each character came from: `text[i]` was produced by the
 * original characters [from[i], to[i]). A run of spaces collapsed to one space maps to the whole run;
 * an em dash expanded to `--` maps both hyphens to the dash.
 */
export interface MappedText {
  readonly text: string
  readonly from: Int32Array
  readonly to: Int32Array
}

/** The original span a span of the mapped text covers. */
export function toOriginal(mapped: MappedText, span: Span): Span {
  if (span.end <= span.start) {
    const at = span.start < mapped.text.length ? mapped.from[span.start] : mapped.to[mapped.text.length - 1] ?? 0
    return { start: at, end: at }
  }
  return { start: mapped.from[span.start], end: mapped.to[span.end - 1] }
}

class MappedBuilder {
  private readonly parts: string[] = []
  private readonly from: number[] = []
  private readonly to: number[] = []

  push(piece: string, start: number, end: number): void {
    this.parts.push(piece)
    for (let i = 0; i < piece.length; i++) {
      this.from.push(start)
      this.to.push(end)
    }
  }

  build(): MappedText {
    return { text: this.parts.join(''), from: Int32Array.from(this.from), to: Int32Array.from(this.to) }
  }
}

/** Runs of spaces and tabs become one space (newlines are kept, so line structure survives). */
export function collapseBlanks(text: string): MappedText {
  const out = new MappedBuilder()
  for (let i = 0; i < text.length; ) {
    const ch = text[i]
    if (ch === ' ' || ch === '\t') {
      let end = i + 1
      while (end < text.length && (text[end] === ' ' || text[end] === '\t')) end++
      out.push(' ', i, end)
      i = end
    } else {
      out.push(ch, i, i + 1)
      i++
    }
  }
  return out.build()
}

/** Typographic punctuation and odd spaces, and the ASCII a model types for them. */
const punctuation: Record<string, string> = {
  '\u201c': '"', '\u201d': '"', '\u201e': '"', '\u201f': '"', '\u2033': '"',
  '\u2018': "'", '\u2019': "'", '\u201a': "'", '\u201b': "'", '\u2032': "'",
  '\u2014': '--', '\u2015': '--', '\u2013': '-', '\u2010': '-', '\u2011': '-', '\u2012': '-', '\u2212': '-',
  '\u2026': '...',
  '\u00a0': ' ', '\u2000': ' ', '\u2001': ' ', '\u2002': ' ', '\u2003': ' ', '\u2004': ' ', '\u2005': ' ',
  '\u2006': ' ', '\u2007': ' ', '\u2008': ' ', '\u2009': ' ', '\u200a': ' ', '\u202f': ' ', '\u205f': ' ',
  '\u3000': ' '
}
const anyPunctuation = new RegExp(`[${Object.keys(punctuation).join('')}]`)

export function hasTypographicPunctuation(text: string): boolean {
  return anyPunctuation.test(text)
}

/** Smart quotes, dashes, ellipsis and non-breaking/typographic spaces in their ASCII spelling. */
export function asciiPunctuation(text: string): MappedText {
  const out = new MappedBuilder()
  for (let i = 0; i < text.length; i++) out.push(punctuation[text[i]] ?? text[i], i, i + 1)
  return out.build()
}

/** Leading whitespace of a line (spaces and tabs). */
export function indentOf(line: string): string {
  let i = 0
  while (i < line.length && (line[i] === ' ' || line[i] === '\t')) i++
  return line.slice(0, i)
}

export function isBlank(line: string): boolean {
  return line.trim() === ''
}

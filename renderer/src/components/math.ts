import type { KatexOptions } from 'katex'

/**
 * KaTeX as model output may use it: no `\href`, `\url`, `\htmlClass` and friends (`trust: false`),
 * errors drawn as the source text rather than thrown, and bounded work on hostile input.
 */
export const KATEX_OPTIONS: KatexOptions = {
  trust: false,
  throwOnError: false,
  strict: 'ignore',
  output: 'htmlAndMathml',
  maxSize: 50,
  maxExpand: 500
}

const FENCE = /^ {0,3}(`{3,}|~{3,})/
/** A line indented as code (four spaces or a tab), and a list item's first line. */
const INDENTED = /^(?: {4}| {0,3}\t)/
const LIST_ITEM = /^ {0,3}(?:[-+*]|\d{1,9}[.)])(?:[ \t]|$)/
/** The quote markers and indentation a line's block sits in, kept when a line is rewritten. */
const PREFIX = /^[ \t>]*/

/**
 * Writes the math delimiters models use in the one form remark-math reads, outside code:
 * `$…$` (only as pandoc reads it, so "$5 and $10" stays money) and `\(…\)` become `$$…$$` (inline),
 * and `\[…\]` or a line that is only `$$…$$` become a `$$` block (display). remark-math runs with
 * `singleDollarTextMath: false`, so a lone `$` is never math. Unclosed delimiters (an answer still
 * streaming) stay text until their closing one arrives. Fenced code and indented code (four spaces
 * after a blank line or a heading, outside a list, whose items' text may be indented that far) are
 * copied as they are.
 */
export function normaliseMath(text: string): string {
  if (!text.includes('$') && !text.includes('\\')) return text
  const lines = text.split('\n')
  const out: string[] = []
  let fence: string | null = null
  let indented = false
  // Whether an indented line here would start code (it cannot continue a paragraph), and whether a list is open.
  let mayStartCode = true
  let inList = false
  let prose: string[] = []
  const flush = () => {
    if (prose.length) out.push(mathInProse(displayBlocks(prose).join('\n')))
    prose = []
  }
  for (const line of lines) {
    const marker = FENCE.exec(line)?.[1]
    const blank = line.trim() === ''
    if (indented && !blank && !INDENTED.test(line)) indented = false
    if (fence !== null) {
      out.push(line)
      if (marker && marker[0] === fence[0] && marker.length >= fence.length && line.trim() === marker) fence = null
      mayStartCode = fence === null
      continue
    }
    if (indented || (!blank && mayStartCode && !inList && INDENTED.test(line))) {
      if (!indented) flush()
      indented = true
      out.push(line)
      mayStartCode = true
      continue
    }
    if (LIST_ITEM.test(line)) inList = true
    else if (!blank && mayStartCode && !/^[ \t]/.test(line)) inList = false
    if (marker) {
      flush()
      out.push(line)
      fence = marker
    } else prose.push(line)
    mayStartCode = blank || /^ {0,3}#{1,6}(?:[ \t]|$)/.test(line)
  }
  flush()
  return out.join('\n')
}

/**
 * `\[` … `\]` on lines of their own, and a line that is only `$$…$$` or `\[…\]`, as `$$` blocks. A
 * `$$` line left unclosed (still streaming) stays text, so a half-written formula is not drawn as one.
 */
function displayBlocks(lines: string[]): string[] {
  const out: string[] = []
  let openFence = -1
  for (let index = 0; index < lines.length; index++) {
    const line = lines[index]
    const prefix = PREFIX.exec(line)![0]
    const body = line.slice(prefix.length).trim()
    const oneLine = /^(?:\$\$(?!\$)(.+?)\$\$|\\\[(.+?)\\\])$/.exec(body)
    if (oneLine) {
      out.push(`${prefix}$$`, `${prefix}${(oneLine[1] ?? oneLine[2]).trim()}`, `${prefix}$$`)
      continue
    }
    if (body === '$$') openFence = openFence < 0 ? out.length : -1
    if (body === '\\[') {
      const end = lines.findIndex((later, at) => at > index && later.slice(PREFIX.exec(later)![0].length).trim() === '\\]')
      if (end > 0) {
        out.push(`${prefix}$$`, ...lines.slice(index + 1, end), `${prefix}$$`)
        index = end
        continue
      }
    }
    out.push(line)
  }
  if (openFence >= 0) out[openFence] = out[openFence].replace('$$', '\\$\\$')
  return out
}

/** Inline math in text outside fenced code: code spans and existing `$$` runs are copied as they are. */
function mathInProse(text: string): string {
  let out = ''
  let at = 0
  while (at < text.length) {
    const char = text[at]
    if (char === '`') {
      const run = /^`+/.exec(text.slice(at))![0]
      const close = closingBackticks(text, at + run.length, run.length)
      const end = close < 0 ? at + run.length : close + run.length
      out += text.slice(at, end)
      at = end
    } else if (char === '\\') {
      const next = text[at + 1]
      const closer = next === '(' ? '\\)' : next === '[' ? '\\]' : null
      const close = closer ? text.indexOf(closer, at + 2) : -1
      const inner = close < 0 ? '' : text.slice(at + 2, close)
      if (closer && inner.trim() && !inner.includes('\n')) {
        out += `$$${inner.trim()}$$`
        at = close + 2
      } else {
        out += text.slice(at, at + 2)
        at += 2
      }
    } else if (char === '$') {
      if (text[at + 1] === '$') {
        const close = text.indexOf('$$', at + 2)
        const end = close < 0 ? at + 2 : close + 2
        out += text.slice(at, end)
        at = end
      } else {
        const close = singleDollarClose(text, at)
        if (close < 0) {
          out += '$'
          at += 1
        } else {
          out += `$$${text.slice(at + 1, close)}$$`
          at = close + 1
        }
      }
    } else {
      out += char
      at += 1
    }
  }
  return out
}

/** Where a code span opened by `length` backticks closes (a run of exactly that many), or -1. */
function closingBackticks(text: string, from: number, length: number): number {
  const runs = /`+/g
  runs.lastIndex = from
  for (let match = runs.exec(text); match; match = runs.exec(text)) {
    if (match[0].length === length) return match.index
  }
  return -1
}

/**
 * The closing `$` of inline math opened at `open`, as pandoc reads it (or -1): the opening `$` has a
 * non-space right after it, the closing one (the next unescaped `$` on the line) a non-space right
 * before it and no letter or digit right after it. So "$5 and $10" and "$PATH:$HOME" stay text.
 */
function singleDollarClose(text: string, open: number): number {
  const first = text[open + 1]
  if (first === undefined || /\s/.test(first)) return -1
  for (let at = open + 1; at < text.length; at++) {
    const char = text[at]
    if (char === '\n') return -1
    if (char === '\\') {
      at++
      continue
    }
    if (char !== '$') continue
    if (/\s/.test(text[at - 1]) || /[A-Za-z0-9$]/.test(text[at + 1] ?? '')) return -1
    return at
  }
  return -1
}

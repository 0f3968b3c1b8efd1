import { closestRegions, formatRegion, matchLocations, spanRegion } from './fuzzy/candidates'
import { reindent } from './fuzzy/reindent'
import { decodeTabsAndReturns, escapeDrift, keepTypography } from './fuzzy/rewrite'
import { findEquivalent, type Found } from './fuzzy/strategies'
import { isBlank } from './fuzzy/text-map'

/**
 * Find-and-replace for `skill_manage` patch and `edit_file`. Tolerates what models get wrong when
 * quoting a file (indentation, whitespace runs, smart quotes and dashes, NBSP, literal `\n`/`\t`,
 * CRLF, a BOM, a stray blank line) but only ever edits text *equal* to old_string under those
 * normalisations, starting and ending on token boundaries where old_string does (`x = 1` is not in
 * `max = 10`; see fuzzy/token-boundaries.ts). Similar-but-different text is never edited; it is
 * shown to the model as a candidate instead.
 *
 * old_string not found is always a failure, even when new_string is already in the file (a re-sent
 * edit and a patch aimed at the wrong text look the same); the error then says where new_string is.
 * A success whose content equals the input is a real no-op: old_string was found, and new_string
 * is the same text once fitted to the file (quote style, indentation); callers report "nothing changed".
 */
export interface FuzzyReplaceResult {
  ok: true
  content: string
  replacements: number
  strategy: string
}

export interface FuzzyReplaceFailure {
  ok: false
  error: string
  /** closest regions, line-numbered, for the model to retry */
  candidates: string[]
  code: 'empty_old' | 'identical' | 'not_found' | 'ambiguous' | 'escape_drift'
}

/** How the messages name what is being edited and how to re-read it (skill_manage vs edit_file). */
export interface FuzzyWording {
  /** Noun for the edited thing: "skill", "file". */
  subject: string
  /** Tool that shows its current text: "skill_view", "read_file". */
  reader: string
  /** What to do to retry: "send the patch again", "call edit_file again". */
  retry: string
  /** Noun for the change: "patch", "edit". */
  change: string
}

export const SKILL_WORDING: FuzzyWording = { subject: 'skill', reader: 'skill_view', retry: 'send the patch again', change: 'patch' }

function retryHint(w: FuzzyWording): string {
  return (
    `Re-read the ${w.subject} with ${w.reader}, copy the exact current text of the lines you want to change into ` +
    `old_string (without the line-number prefixes), and ${w.retry}.`
  )
}
const MAX_LISTED_MATCHES = 10

/** The file as the matchers see it: no BOM, and LF line breaks when the file uses CRLF throughout. */
interface Document {
  readonly bom: string
  readonly crlf: boolean
  readonly body: string
}

function openDocument(content: string): Document {
  const bom = content.startsWith('\uFEFF') ? '\uFEFF' : ''
  const raw = content.slice(bom.length)
  const crlfCount = raw.split('\r\n').length - 1
  const lfCount = raw.split('\n').length - 1
  const crlf = crlfCount > 0 && crlfCount === lfCount
  return { bom, crlf, body: crlf ? raw.replaceAll('\r\n', '\n') : raw }
}

/** Brings an argument to the document's conventions (mixed-ending files are matched as they are). */
function adopt(document: Document, text: string): string {
  const unmarked = text.startsWith('\uFEFF') ? text.slice(1) : text
  return document.crlf || !document.body.includes('\r') ? unmarked.replaceAll('\r\n', '\n') : unmarked
}

function render(document: Document, body: string): string {
  return document.bom + (document.crlf ? body.replaceAll('\n', '\r\n') : body)
}

function failure(code: FuzzyReplaceFailure['code'], error: string, candidates: string[] = []): FuzzyReplaceFailure {
  return { ok: false, error, candidates, code }
}

/** old_string/new_string without the blank lines that open or close old_string (the same count is dropped from new_string). */
function withoutEdgeBlankLines(oldString: string, newString: string): { oldString: string; newString: string } | null {
  const oldLines = oldString.split('\n')
  let leading = 0
  while (leading < oldLines.length && isBlank(oldLines[leading])) leading++
  let trailing = 0
  while (trailing < oldLines.length - leading && isBlank(oldLines[oldLines.length - 1 - trailing])) trailing++
  if (leading === 0 && trailing === 0) return null
  const newLines = newString.split('\n')
  let newLeading = 0
  while (newLeading < leading && newLeading < newLines.length && isBlank(newLines[newLeading])) newLeading++
  let newTrailing = 0
  while (newTrailing < trailing && newTrailing < newLines.length - newLeading && isBlank(newLines[newLines.length - 1 - newTrailing])) {
    newTrailing++
  }
  return {
    oldString: oldLines.slice(leading, oldLines.length - trailing).join('\n'),
    newString: newLines.slice(newLeading, newLines.length - newTrailing).join('\n')
  }
}

/**
 * Where new_string already stands in place of old_string's closest look-alike (an edit that already
 * landed, or one aimed at text that already reads as wanted), as `line n` or `lines n-m`; null when it does not.
 * A short new_string that merely occurs elsewhere does not count, nor does a deletion (new_string
 * empty or part of old_string).
 */
function newStringWhereOldWas(body: string, oldString: string, newString: string): string | null {
  if (isBlank(newString) || oldString.includes(newString)) return null
  const found = findEquivalent(body, newString)
  if (!found) return null
  const near = closestRegions(body, oldString)
  const span = found.spans.find((candidate) => {
    const where = spanRegion(body, candidate)
    return near.some((region) => where.firstLine <= region.lastLine && region.firstLine <= where.lastLine)
  })
  if (!span) return null
  const { firstLine, lastLine } = spanRegion(body, span)
  return firstLine === lastLine ? `line ${firstLine + 1}` : `lines ${firstLine + 1}-${lastLine + 1}`
}

function notFound(body: string, oldString: string, newString: string, wording: FuzzyWording): FuzzyReplaceFailure {
  const candidates = closestRegions(body, oldString).map((region) => formatRegion(body, region))
  const lead =
    'old_string was not found in the file, not even ignoring indentation, whitespace runs, quote/dash style, ' +
    'escapes and line endings. Only text equal to old_string is ever replaced.'
  const insideTokens = findEquivalent(body, oldString, false)
  const boundaries = insideTokens
    ? ` It occurs only inside longer words or numbers (${matchLocations(body, insideTokens.spans.slice(0, MAX_LISTED_MATCHES)).join('; ')}); ` +
      'a match must start and end where old_string\'s own words and numbers do, so "x = 1" is not in "max = 10". ' +
      'Quote the whole words or numbers you mean to change.'
    : ''
  const present = newStringWhereOldWas(body, oldString, newString)
  const already = present
    ? ` new_string is already in the ${wording.subject} at ${present}: if an earlier ${wording.change} made this change, it has landed; ` +
      `this ${wording.change} changed nothing.`
    : ''
  const closest = candidates.length > 0
    ? `\nClosest regions (not edited; similar is not equal):\n${candidates.join('\n---\n')}\n`
    : '\nNothing in the file resembles old_string. '
  return failure('not_found', `${lead}${boundaries}${already}${closest}${retryHint(wording)}`, candidates)
}

function ambiguous(body: string, found: Found): FuzzyReplaceFailure {
  const listed = found.spans.slice(0, MAX_LISTED_MATCHES)
  const locations = matchLocations(body, listed)
  const more = found.spans.length > listed.length ? `; and ${found.spans.length - listed.length} more` : ''
  const candidates = listed.map((span, i) => formatRegion(body, spanRegion(body, span), `match ${i + 1}`))
  return failure(
    'ambiguous',
    `old_string matches ${found.spans.length} places (${found.strategy}): ${locations.join('; ')}${more}. ` +
      'Add neighbouring lines to old_string so it matches exactly one place, or set replace_all to change every match.',
    candidates
  )
}

export function fuzzyReplace(
  content: string,
  oldString: string,
  newString: string,
  replaceAll = false,
  wording: FuzzyWording = SKILL_WORDING
): FuzzyReplaceResult | FuzzyReplaceFailure {
  const document = openDocument(content)
  let oldText = adopt(document, oldString)
  let newText = adopt(document, newString)
  if (isBlank(oldText)) {
    return failure(
      'empty_old',
      'old_string is empty or only whitespace, so it cannot say what to replace. Put the exact current text ' +
        `to change in old_string (copy it from ${wording.reader}).`
    )
  }
  if (oldText === newText) {
    return failure('identical', `old_string and new_string are identical, so the ${wording.change} would change nothing. Put the new text in new_string.`)
  }
  const body = document.body
  let found = findEquivalent(body, oldText)
  let suffix = ''
  const trimmed = found ? null : withoutEdgeBlankLines(oldText, newText)
  if (trimmed && !isBlank(trimmed.oldString)) {
    found = findEquivalent(body, trimmed.oldString)
    oldText = trimmed.oldString
    newText = trimmed.newString
    suffix = '+blank_lines_trimmed'
  }
  if (!found) return notFound(body, oldText, newText, wording)
  if (found.spans.length > 1 && !replaceAll) return ambiguous(body, found)

  const targets = targetsOf(body, found)
  const matchedText = targets.map((target) => target.region).join('')
  if (found.strategy !== 'exact') {
    const drift = escapeDrift(oldText, newText, matchedText)
    if (drift) {
      return failure(
        'escape_drift',
        `Escape-drift detected: old_string and new_string contain the literal sequence ${drift} but the matched ` +
          'text in the file does not. A quote picked up a spurious backslash in transport; writing it would put ' +
          `backslashes into the ${wording.subject}. Send old_string and new_string again without backslash-escaping ${drift[1]} characters.`
      )
    }
  }
  const matchedHasReturn = matchedText.includes('\r') || (document.crlf && matchedText.includes('\n'))
  let replacement = decodeTabsAndReturns(newText, matchedText, matchedHasReturn)
  if (document.crlf) replacement = replacement.replaceAll('\r\n', '\n')

  let result = body
  for (let i = targets.length - 1; i >= 0; i--) {
    const target = targets[i]
    let text = replacement
    if (found.strategy === 'unicode_normalized') text = keepTypography(target.region, text)
    if (target.reindent) text = reindent(target.region, found.pattern, text, target.startsLine)
    result = result.slice(0, target.start) + text + result.slice(target.end)
  }
  return { ok: true, content: render(document, result), replacements: targets.length, strategy: found.strategy + suffix }
}

interface Target {
  readonly start: number
  readonly end: number
  readonly region: string
  readonly startsLine: boolean
  readonly reindent: boolean
}

/**
 * Where each match is replaced. A match that starts inside a line's indentation (old_string quoted
 * with less indentation than the file has) is widened to the line start and re-indented, so
 * "      x" found inside "        x" does not leave a two-space stub in front of new_string.
 */
function targetsOf(body: string, found: Found): Target[] {
  const quotesIndent = /^[ \t]/.test(found.pattern)
  let previousEnd = 0
  return found.spans.map((span) => {
    const lineStart = span.start === 0 ? 0 : body.lastIndexOf('\n', span.start - 1) + 1
    const widen = quotesIndent && lineStart < span.start && lineStart >= previousEnd && /^[ \t]*$/.test(body.slice(lineStart, span.start))
    const start = widen ? lineStart : span.start
    previousEnd = span.end
    return {
      start,
      end: span.end,
      region: body.slice(start, span.end),
      startsLine: start === lineStart,
      reindent: found.strategy !== 'exact' || widen
    }
  })
}

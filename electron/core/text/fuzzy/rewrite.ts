import { diffChars } from 'diff'
import { asciiPunctuation, type MappedText } from './text-map'

/**
 * Adjustments to new_string once a match is found, so the file keeps its own conventions
 * (indentation, tabs, typographic punctuation) where the model's arguments drifted from them.
 */

/**
 * `\'` or `\"` in both old_string and new_string but not in the matched file text is a transport
 * artifact (a shell-style escape added to a quote); writing it would put backslashes into the file.
 * Returns the offending sequence, or null.
 */
export function escapeDrift(oldString: string, newString: string, matchedText: string): string | null {
  for (const suspect of ["\\'", '\\"']) {
    if (newString.includes(suspect) && oldString.includes(suspect) && !matchedText.includes(suspect)) return suspect
  }
  return null
}

/**
 * Models send a tab as the two characters `\t`. Decode `\t` (and `\r`) in new_string only when the
 * matched text has the real character and not the escape itself (`sep = "\t"` in code stays as it is).
 * `\n` is never decoded: real newlines survive JSON, and `\n` inside string literals is common.
 */
export function decodeTabsAndReturns(newString: string, matchedText: string, matchedHasReturn: boolean): string {
  let out = newString
  if (out.includes('\\t') && matchedText.includes('\t') && !matchedText.includes('\\t')) out = out.replaceAll('\\t', '\t')
  if (out.includes('\\r') && matchedHasReturn && !matchedText.includes('\\r')) out = out.replaceAll('\\r', '\r')
  return out
}

/**
 * After a match through ASCII punctuation, keeps the file's typographic characters wherever new_string
 * leaves the matched text unchanged: file `Hello—world`, old `Hello--world`, new `Hello--there` →
 * `Hello—there`. The result always reads as new_string once punctuation is made ASCII; when the
 * mapping is not clean it is new_string itself.
 */
export function keepTypography(region: string, newString: string): string {
  const mappedRegion = asciiPunctuation(region)
  const parts: string[] = []
  let at = 0
  for (const change of diffChars(mappedRegion.text, newString)) {
    if (change.added) parts.push(change.value)
    else if (change.removed) at += change.value.length
    else {
      parts.push(originalSlice(mappedRegion, region, at, at + change.value.length))
      at += change.value.length
    }
  }
  const kept = parts.join('')
  return asciiPunctuation(kept).text === asciiPunctuation(newString).text ? kept : newString
}
/** The original text behind mapped [start, end), or the mapped text when a bound splits an expansion (`—` → `--`). */
function originalSlice(mapped: MappedText, original: string, start: number, end: number): string {
  const length = mapped.text.length
  const startsClean = start === 0 || start === length || mapped.from[start] !== mapped.from[start - 1]
  const endsClean = end === length || end === 0 || mapped.from[end] !== mapped.from[end - 1]
  if (!startsClean || !endsClean) return mapped.text.slice(start, end)
  const from = start === length ? original.length : mapped.from[start]
  const to = end === length ? original.length : mapped.from[end]
  return original.slice(from, to)
}

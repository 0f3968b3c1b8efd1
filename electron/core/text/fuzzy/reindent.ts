import { indentOf, isBlank } from './text-map'

/**
 * Puts new_string on the file's indentation after a match that ignored indentation. The pairs
 * (indent of old_string line j → indent of matched line j) tell how the model's indentation maps to
 * the file's: 0 → 8 spaces, or 2-space steps → 4-space steps, or spaces → tabs. New lines at a known
 * model indent get the file's exact indent; other depths follow the same linear mapping, so relative
 * nesting is kept in the file's own units; lines shallower than the shallowest quoted line sit at the
 * file's indent for that line. Blank lines are left as they are. When the pairs disagree
 * (the model flattened a nested block), the model's base indent is swapped for the file's and deeper
 * lines keep their extra indent.
 */
export function reindent(region: string, oldString: string, newString: string, regionStartsLine: boolean): string {
  const pairs = indentPairs(region, oldString, regionStartsLine)
  if (pairs.length === 0 || pairs.every((pair) => pair.model === pair.file)) return newString
  const mapping = linearMapping(pairs)
  return newString
    .split('\n')
    .map((line, i) => {
      if (isBlank(line) || (i === 0 && !regionStartsLine)) return line
      const model = indentOf(line)
      const body = line.slice(model.length)
      return (mapping ? mapping(model) : shiftBase(pairs[0], model)) + body
    })
    .join('\n')
}

interface IndentPair {
  readonly model: string
  readonly file: string
}

function indentPairs(region: string, oldString: string, regionStartsLine: boolean): IndentPair[] {
  const regionLines = region.split('\n')
  const oldLines = oldString.split('\n')
  const pairs: IndentPair[] = []
  // A region that starts mid-line has no indentation of its own on its first line.
  for (let j = regionStartsLine ? 0 : 1; j < Math.min(regionLines.length, oldLines.length); j++) {
    if (isBlank(regionLines[j]) || isBlank(oldLines[j])) continue
    pairs.push({ model: indentOf(oldLines[j]), file: indentOf(regionLines[j]) })
  }
  return pairs
}

/** Indent width in columns, a tab counting as four. */
function columns(indent: string): number {
  let width = 0
  for (const ch of indent) width += ch === '\t' ? 4 : 1
  return width
}

/** The file's indent character when its indents use only one kind; '' when all are empty; null when mixed. */
function fileIndentChar(pairs: readonly IndentPair[]): string | null {
  const used = new Set(pairs.flatMap((pair) => [...pair.file]))
  if (used.size === 0) return ''
  return used.size === 1 ? [...used][0] : null
}

/** model indent → file indent, or null when the pairs do not fit one consistent linear mapping. */
function linearMapping(pairs: readonly IndentPair[]): ((model: string) => string) | null {
  const known = new Map<number, string>()
  for (const pair of pairs) {
    const width = columns(pair.model)
    const seen = known.get(width)
    if (seen !== undefined && seen !== pair.file) return null
    known.set(width, pair.file)
  }
  const unit = fileIndentChar(pairs)
  if (unit === null) return null
  const points = [...known.entries()].map(([model, file]) => ({ model, file: file.length })).sort((a, b) => a.model - b.model)
  const first = points[0]
  const last = points[points.length - 1]
  // One known depth: a plain shift (in tabs when the file indents with tabs and the model with spaces).
  const slope = points.length > 1 ? (last.file - first.file) / (last.model - first.model) : unit === '\t' ? 1 / 4 : 1
  if (!(slope > 0) || points.some((p) => Math.abs(first.file + (p.model - first.model) * slope - p.file) > 1e-9)) return null
  const indentChar = unit === '' ? ' ' : unit
  return (model) => {
    // Shallower than anything quoted: anchored at the file's base, as Hermes does.
    const width = Math.max(columns(model), first.model)
    const exact = known.get(width)
    if (exact !== undefined) return exact
    return indentChar.repeat(Math.round(first.file + (width - first.model) * slope))
  }
}

/** Fallback: swap the model's base indent for the file's; shallower lines sit at the file's base. */
function shiftBase(base: IndentPair, model: string): string {
  return model.startsWith(base.model) ? base.file + model.slice(base.model.length) : base.file
}

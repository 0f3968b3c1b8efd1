import matter from 'gray-matter'
import {
  MAX_CONTENT_CHARS,
  MAX_DESCRIPTION_LENGTH,
  MAX_FILE_BYTES,
  MAX_NAME_LENGTH,
  NAME_PATTERN,
  formatCount
} from './skill-paths'

/**
 * SKILL.md = YAML front matter + Markdown body. Cairn is strict about what it writes (so every skill it
 * makes loads cleanly everywhere) and lenient about what it reads (so skills written elsewhere still load).
 */

export type SkillIssueCode =
  | 'empty'
  | 'no_frontmatter'
  | 'not_closed'
  | 'yaml'
  | 'not_mapping'
  | 'missing_name'
  | 'missing_description'
  | 'name_mismatch'
  | 'empty_description'
  | 'description_too_long'
  | 'empty_body'

export interface SkillIssue {
  code: SkillIssueCode
  message: string
}

/** Issues that stop a file from being read at all; the others are about its fields. */
const STRUCTURAL: ReadonlySet<SkillIssueCode> = new Set(['empty', 'no_frontmatter', 'not_closed', 'yaml', 'not_mapping'])

export function isStructural(issue: SkillIssue): boolean {
  return STRUCTURAL.has(issue.code)
}

type Split = { ok: true; yaml: string; body: string } | { ok: false; issue: SkillIssue }

/** Hermes's rule: the file starts with `---` and the front matter closes at the first `\n---\s*\n`. */
function splitFrontmatter(text: string, allowUnterminated: boolean): Split {
  const firstLine = text.slice(0, text.indexOf('\n') === -1 ? text.length : text.indexOf('\n'))
  // `---js` would make gray-matter pick its eval-based JavaScript engine: only a bare `---` opens YAML.
  if (!text.startsWith('---') || firstLine.trim() !== '---') {
    return { ok: false, issue: { code: 'no_frontmatter', message: 'SKILL.md must start with YAML frontmatter (---). See existing skills for format.' } }
  }
  const rest = text.slice(3)
  const close = /\n---[ \t]*(?:\r?\n)+/.exec(rest) ?? (allowUnterminated ? /\n---[ \t]*$/.exec(rest) : null)
  if (!close) {
    return { ok: false, issue: { code: 'not_closed', message: "SKILL.md frontmatter is not closed. Ensure you have a closing '---' line." } }
  }
  return { ok: true, yaml: rest.slice(0, close.index), body: rest.slice(close.index + close[0].length) }
}

const refuseEngine = {
  parse: () => {
    throw new Error('only YAML front matter is supported')
  }
}

type YamlResult = { ok: true; data: Record<string, unknown> } | { ok: false; issue: SkillIssue }

function parseYaml(yaml: string): YamlResult {
  const withoutComments = yaml.replace(/^\s*#.*$/gm, '').trim()
  if (withoutComments === '') {
    return { ok: false, issue: { code: 'not_mapping', message: 'Frontmatter must be a YAML mapping (key: value pairs).' } }
  }
  let data: unknown
  try {
    // An options object keeps gray-matter's content-keyed cache out of it (stale results across edits).
    data = matter(`---\n${yaml}\n---\n`, { language: 'yaml', engines: { js: refuseEngine, javascript: refuseEngine } }).data
  } catch (error) {
    const firstLine = String((error as Error).message ?? error).split('\n')[0]
    return { ok: false, issue: { code: 'yaml', message: `YAML frontmatter parse error: ${firstLine}` } }
  }
  if (typeof data !== 'object' || data === null || Array.isArray(data)) {
    return { ok: false, issue: { code: 'not_mapping', message: 'Frontmatter must be a YAML mapping (key: value pairs).' } }
  }
  return { ok: true, data: data as Record<string, unknown> }
}

export type FrontmatterParts =
  | { ok: true; yaml: string; data: Record<string, unknown>; body: string; closeAt: number }
  | { ok: false; issue: SkillIssue }

/**
 * The strict split and parse Cairn's writes use: the YAML text (from just after the opening `---`),
 * its data, the body, and `closeAt`, where the closing `\n---` line starts (so the front matter can be
 * replaced without touching a byte of what follows).
 */
export function parseFrontmatter(text: string): FrontmatterParts {
  const split = splitFrontmatter(text, false)
  if (!split.ok) return split
  const parsed = parseYaml(split.yaml)
  if (!parsed.ok) return parsed
  return { ok: true, yaml: split.yaml, data: parsed.data, body: split.body, closeAt: 3 + split.yaml.length }
}

/**
 * Every issue of `text` as a SKILL.md for the skill `expectedName`, in Hermes's order. A structural issue
 * is returned alone (nothing after it can be checked).
 */
export function skillIssues(text: string, expectedName: string): SkillIssue[] {
  if (text.trim() === '') return [{ code: 'empty', message: 'Content cannot be empty.' }]
  const split = splitFrontmatter(text, false)
  if (!split.ok) return [split.issue]
  const parsed = parseYaml(split.yaml)
  if (!parsed.ok) return [parsed.issue]
  const data = parsed.data
  const issues: SkillIssue[] = []
  if (!('name' in data) || data.name === null || data.name === undefined) {
    issues.push({ code: 'missing_name', message: "Frontmatter must include 'name' field." })
  }
  if (!('description' in data) || data.description === null || data.description === undefined) {
    issues.push({ code: 'missing_description', message: "Frontmatter must include 'description' field." })
  }
  if (issues.length) return issues
  if (data.name !== expectedName) {
    issues.push({
      code: 'name_mismatch',
      message: `Frontmatter name '${String(data.name)}' must equal the skill's name '${expectedName}' (its folder name). ` +
        `Set 'name: ${expectedName}' in the frontmatter.`
    })
  }
  const description = typeof data.description === 'string' ? data.description.trim() : ''
  if (description === '') {
    issues.push({
      code: 'empty_description',
      message: "Frontmatter 'description' must be non-empty text saying what the skill does and when to use it."
    })
  } else if (description.length > MAX_DESCRIPTION_LENGTH) {
    issues.push({ code: 'description_too_long', message: `Description exceeds ${MAX_DESCRIPTION_LENGTH} characters.` })
  }
  if (split.body.trim() === '') {
    issues.push({
      code: 'empty_body',
      message: 'SKILL.md must have content after the frontmatter (instructions, procedures, etc.).'
    })
  }
  return issues
}

/** First strict-validation error of a SKILL.md Cairn is about to write, or null. */
export function validateSkillContent(text: string, expectedName: string): string | null {
  return skillIssues(text, expectedName)[0]?.message ?? null
}

export function contentSizeError(label: string, text: string): string | null {
  if (text.length <= MAX_CONTENT_CHARS) return null
  return `${label} content is ${formatCount(text.length)} characters (limit: ${formatCount(MAX_CONTENT_CHARS)}). ` +
    'Consider splitting into a smaller SKILL.md with supporting files in references/ or templates/.'
}

export function fileBytesError(text: string): string | null {
  const bytes = Buffer.byteLength(text, 'utf8')
  if (bytes <= MAX_FILE_BYTES) return null
  return `File content is ${formatCount(bytes)} bytes (limit: ${formatCount(MAX_FILE_BYTES)} bytes / 1 MiB). Consider splitting into smaller files.`
}

export type LenientSkill =
  | { ok: true; frontmatterName: string | null; description: string; frontmatter: Record<string, unknown>; warnings: string[] }
  | { ok: false; reason: string }

/** Quotes `key: value` values that hold an unquoted `: ` (the Agent Skills client guide's one retry). */
export function quoteUnquotedColons(yaml: string): string {
  return yaml.replace(/^(\s*[A-Za-z0-9_][\w.-]*:[ \t]+)(.*)$/gm, (line, prefix: string, value: string) => {
    const trimmed = value.trim()
    if (!/:(\s|$)/.test(trimmed) || /^["'[{|>&*!#]/.test(trimmed)) return line
    return prefix + JSON.stringify(trimmed)
  })
}

/** Reads a SKILL.md written by anyone: loads with warnings where it can, skips only when it must. */
export function readSkillLenient(raw: string, folderName: string): LenientSkill {
  const text = raw.replace(/^\uFEFF/, '').replace(/\r\n?/g, '\n')
  if (text.trim() === '') return { ok: false, reason: 'SKILL.md is empty' }
  const split = splitFrontmatter(text, true)
  if (!split.ok) return { ok: false, reason: split.issue.message }
  const warnings: string[] = []
  let parsed = parseYaml(split.yaml)
  if (!parsed.ok && parsed.issue.code === 'yaml') {
    const retry = parseYaml(quoteUnquotedColons(split.yaml))
    if (retry.ok) {
      warnings.push('front matter is not valid YAML as written (unquoted colons); loaded after quoting them')
      parsed = retry
    }
  }
  if (!parsed.ok) return { ok: false, reason: parsed.issue.message }
  const data = parsed.data
  const description = typeof data.description === 'string' || typeof data.description === 'number'
    ? String(data.description).trim()
    : ''
  if (description === '') return { ok: false, reason: "front matter has no 'description' (a skill needs one to be found)" }

  let frontmatterName: string | null = null
  if (typeof data.name === 'string' || typeof data.name === 'number') frontmatterName = String(data.name)
  if (frontmatterName === null) warnings.push(`front matter has no 'name'; using the folder name '${folderName}'`)
  else if (frontmatterName !== folderName) {
    warnings.push(`front matter name '${frontmatterName}' differs from the folder name '${folderName}'; Cairn calls it '${folderName}'`)
  }
  if (folderName.length > MAX_NAME_LENGTH || !NAME_PATTERN.test(folderName)) {
    warnings.push(`folder name '${folderName}' is not a valid skill name (lowercase letters, digits, '.', '_', '-'; at most 64); Cairn cannot change this skill`)
  }
  if (description.length > MAX_DESCRIPTION_LENGTH) {
    warnings.push(`description is ${formatCount(description.length)} characters (limit ${formatCount(MAX_DESCRIPTION_LENGTH)})`)
  }
  if (text.length > MAX_CONTENT_CHARS) {
    warnings.push(`SKILL.md is ${formatCount(text.length)} characters (limit ${formatCount(MAX_CONTENT_CHARS)})`)
  }
  if (split.body.trim() === '') warnings.push('SKILL.md has no instructions after the front matter')
  return { ok: true, frontmatterName, description: description.replace(/\s+/g, ' '), frontmatter: data, warnings }
}

/** Hermes's index truncation: at most `max` characters, ending in `...` when cut. */
export function truncateDescription(description: string, max = 60): string {
  return description.length <= max ? description : description.slice(0, max - 3) + '...'
}

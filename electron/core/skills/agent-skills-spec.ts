import matter from 'gray-matter'
import { parseFrontmatter, type SkillIssueCode } from './skill-file'
import { MAX_DESCRIPTION_LENGTH, MAX_NAME_LENGTH } from './skill-paths'
import { writtenScalar } from './yaml-scalars'

/**
 * The Agent Skills specification (agentskills.io) for a SKILL.md's front matter: what a strict
 * validator in another client rejects, and how Cairn turns the Hermes-style front matter a model
 * writes (`version`, `tags`, `platforms`, … at the top level) into front matter that passes.
 */

/** The only top-level fields the specification allows. */
export const SPEC_FIELDS: readonly string[] = ['name', 'description', 'license', 'compatibility', 'metadata', 'allowed-tools']
export const MAX_COMPATIBILITY_LENGTH = 500

/** What a problem is about: `name` (its format) and `folder` (it differs from the folder) are the name's. */
export type SpecIssueCode = 'structure' | 'field' | 'name' | 'folder' | 'description' | 'license' | 'compatibility' | 'metadata' | 'allowed_tools'

export interface SpecIssue {
  code: SpecIssueCode
  message: string
}

/**
 * Why `name` breaks the specification's name rule (1–64 characters of `a-z0-9-`, no leading, trailing
 * or double hyphen), as a phrase that follows the name ("must not contain '--'"); null when it is valid.
 */
export function specNameRule(name: string): string | null {
  if (name.length === 0) return 'is empty'
  if (name.length > MAX_NAME_LENGTH) return `is longer than ${MAX_NAME_LENGTH} characters`
  if (!/^[a-z0-9-]+$/.test(name)) return 'must be lowercase letters, digits and single hyphens'
  if (name.startsWith('-') || name.endsWith('-')) return 'must not start or end with a hyphen'
  if (name.includes('--')) return "must not contain '--'"
  return null
}

/** A name close to `name` that follows the rule, for error messages. */
export function suggestSpecName(name: string): string {
  const base = name.toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/^-+|-+$/g, '')
  return base.slice(0, MAX_NAME_LENGTH).replace(/-+$/, '') || 'my-skill'
}

/** The error create returns for a name another client would reject; null when the name is valid. */
export function specNameError(name: string): string | null {
  const rule = specNameRule(name)
  if (!rule) return null
  return `Invalid skill name '${name}': an Agent Skills name ${rule} (it is also the folder name). ` +
    `Choose another name, e.g. '${suggestSpecName(name)}'.`
}

const STRUCTURE_MESSAGES: Partial<Record<SkillIssueCode, string>> = {
  empty: 'SKILL.md is empty',
  no_frontmatter: 'SKILL.md does not start with YAML front matter (---)',
  not_closed: 'front matter is not closed by a --- line',
  not_mapping: 'front matter is not a YAML mapping of fields'
}

const isMap = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value) && !(value instanceof Date)

/** Every problem a strict Agent Skills validator finds in `content` as the SKILL.md of folder `folderName`. */
export function specProblems(content: string, folderName: string): SpecIssue[] {
  const parts = parseFrontmatter(content)
  if (!parts.ok) {
    const message = STRUCTURE_MESSAGES[parts.issue.code] ??
      `front matter is not valid YAML: ${parts.issue.message.replace(/^YAML frontmatter parse error: /, '')}`
    return [{ code: 'structure', message }]
  }
  const data = parts.data
  const problems: SpecIssue[] = []
  const add = (code: SpecIssueCode, message: string): void => {
    problems.push({ code, message })
  }
  for (const key of Object.keys(data)) {
    if (!SPEC_FIELDS.includes(key)) add('field', `top-level field '${key}' is not allowed (move it under metadata)`)
  }
  if (data.name === undefined) add('name', 'name is required')
  else if (typeof data.name !== 'string') add('name', 'name must be a string')
  else {
    const rule = specNameRule(data.name)
    if (rule) add('name', `name '${data.name}' ${rule}`)
    if (data.name !== folderName) add('folder', `name '${data.name}' differs from its folder '${folderName}'`)
  }
  if (data.description === undefined) add('description', 'description is required')
  else if (typeof data.description !== 'string') add('description', 'description must be a string')
  else if (data.description.trim() === '') add('description', 'description is empty')
  else if (data.description.length > MAX_DESCRIPTION_LENGTH) add('description', `description is longer than ${MAX_DESCRIPTION_LENGTH} characters`)
  if ('license' in data && typeof data.license !== 'string') add('license', 'license must be a string')
  if ('compatibility' in data) {
    const compatibility = data.compatibility
    if (typeof compatibility !== 'string') add('compatibility', 'compatibility must be a string')
    else if (compatibility.trim() === '') add('compatibility', 'compatibility is empty (omit it, or say what the skill needs)')
    else if (compatibility.length > MAX_COMPATIBILITY_LENGTH) add('compatibility', `compatibility is longer than ${MAX_COMPATIBILITY_LENGTH} characters`)
  }
  if ('metadata' in data) {
    if (!isMap(data.metadata)) add('metadata', 'metadata must be a map of string keys to string values')
    else {
      for (const [key, value] of Object.entries(data.metadata)) {
        if (typeof value !== 'string') add('metadata', `metadata.${key} must be a string`)
      }
    }
  }
  if ('allowed-tools' in data && typeof data['allowed-tools'] !== 'string') {
    add('allowed_tools', 'allowed-tools must be a space-separated string')
  }
  return problems
}

/** What a strict validator would reject, as short English strings; an empty array means valid. */
export function specIssues(content: string, folderName: string): string[] {
  return specProblems(content, folderName).map((problem) => problem.message)
}

export interface FrontmatterNormalization {
  data: Record<string, unknown>
  /** Top-level fields that now live under `metadata`. */
  moved: string[]
  /** What else changed, as phrases for the tool result ("wrote allowed-tools as a space-separated string"). */
  notes: string[]
  /** False when `data` already passes: the writer keeps the text exactly as written. */
  changed: boolean
}

/** A YAML date as written when that was a plain date (`2025-01-31`), else its ISO form. */
function dateText(date: Date): string {
  const iso = date.toISOString()
  return iso.endsWith('T00:00:00.000Z') ? iso.slice(0, 10) : iso
}

/**
 * A metadata value as the string the specification wants: arrays joined with ", ", maps as compact
 * JSON, numbers, booleans and dates as written (`written`, the scalar's source text, keeps `1.10` from
 * becoming `1.1`), nothing as "".
 */
function metaString(value: unknown, written: string | null = null): string {
  if (typeof value === 'string') return value
  if (value === null || value === undefined) return ''
  if (written !== null && (typeof value === 'number' || typeof value === 'boolean' || value instanceof Date)) return written
  if (value instanceof Date) return dateText(value)
  if (Array.isArray(value)) {
    return value.map((item) => (typeof item === 'object' && item !== null && !(item instanceof Date) ? JSON.stringify(item) : metaString(item))).join(', ')
  }
  if (typeof value === 'object') return JSON.stringify(value)
  return String(value)
}

/**
 * Front matter that passes {@link specIssues} (apart from what only the author can fix: the name, an
 * over-long description or compatibility), with the report of what moved. Extra top-level fields move
 * under `metadata` as strings; an existing `metadata` map is kept and its values stringified, and on a
 * clash its value wins; `allowed-tools` given as a list becomes the space-separated string. Key order
 * is kept, with a new `metadata` last. `rawYaml` (the front matter's text) lets scalars keep their
 * written form.
 */
export function normalizeFrontmatterReport(data: Record<string, unknown>, rawYaml = ''): FrontmatterNormalization {
  const notes: string[] = []
  const moved: string[] = []
  const clashes: string[] = []
  let changed = false
  const metadata: Record<string, string> = {}
  const existing = data.metadata
  if (isMap(existing)) {
    let stringified = false
    for (const [key, value] of Object.entries(existing)) {
      metadata[key] = metaString(value, writtenScalar(rawYaml, key, 'metadata'))
      if (metadata[key] !== value) stringified = true
    }
    if (stringified) {
      changed = true
      notes.push('wrote metadata values as strings')
    }
  } else if (existing !== undefined) {
    changed = true
    if (existing !== null) {
      metadata.value = metaString(existing)
      notes.push("kept the old metadata (not a map) as metadata.value")
    }
  }

  const out: Record<string, unknown> = {}
  for (const [key, value] of Object.entries(data)) {
    if (key === 'metadata') {
      out.metadata = metadata // holds its place; filled in below
    } else if (key === 'name' || key === 'description') {
      out[key] = value // only their author can fix these (the writers refuse them)
    } else if (SPEC_FIELDS.includes(key)) {
      const fixed = specFieldValue(key, value, rawYaml)
      if (fixed !== value) changed = true
      if (fixed === undefined) {
        notes.push(`dropped the empty '${key}'`)
        continue
      }
      out[key] = fixed
      if (fixed !== value && key === 'allowed-tools') notes.push('wrote allowed-tools as a space-separated string')
    } else {
      changed = true
      moved.push(key)
      const text = metaString(value, writtenScalar(rawYaml, key))
      if (!(key in metadata)) metadata[key] = text
      else if (metadata[key] !== text) clashes.push(key)
    }
  }
  if (Object.keys(metadata).length === 0) delete out.metadata
  else out.metadata = metadata
  if (moved.length) notes.unshift(`moved ${moved.map((key) => `'${key}'`).join(', ')} under metadata`)
  for (const key of clashes) notes.push(`kept metadata.${key} and dropped the different top-level '${key}'`)
  return { data: out, moved, notes, changed }
}

/** {@link normalizeFrontmatterReport}'s front matter alone. */
export function normalizeFrontmatter(data: Record<string, unknown>, rawYaml = ''): Record<string, unknown> {
  return normalizeFrontmatterReport(data, rawYaml).data
}

/** `license`, `compatibility` or `allowed-tools` as a string, or undefined to drop an empty one. */
function specFieldValue(key: string, value: unknown, rawYaml: string): unknown {
  if (typeof value === 'string') return key === 'compatibility' && value.trim() === '' ? undefined : value
  if (value === null || value === undefined) return undefined
  if (key === 'allowed-tools' && Array.isArray(value)) return value.map((item) => metaString(item)).join(' ')
  return metaString(value, writtenScalar(rawYaml, key))
}

/** Block-style YAML for front matter (no `{}`/`[]` flow collections, no folding of long lines). */
function dumpFrontmatter(data: Record<string, unknown>): string {
  // gray-matter passes these options on to its js-yaml dump.
  const options = { lineWidth: -1, noRefs: true, flowLevel: -1 } as matter.GrayMatterOption<string, never>
  const text = matter.stringify('', data, options)
  return text.slice('---\n'.length, text.lastIndexOf('\n---\n'))
}

export interface NormalizedSkill {
  /** The SKILL.md to write: the input itself when its front matter already passed. */
  content: string
  moved: string[]
  notes: string[]
}

/**
 * `content` with its front matter normalized ({@link normalizeFrontmatterReport}) and written back in
 * block style; the closing `---` and everything after it are kept byte for byte. Content whose front
 * matter does not parse, or already passes, comes back unchanged (the writers' own checks report the former).
 */
export function normalizeSkillMarkdown(content: string): NormalizedSkill {
  const parts = parseFrontmatter(content)
  if (!parts.ok) return { content, moved: [], notes: [] }
  const report = normalizeFrontmatterReport(parts.data, parts.yaml)
  if (!report.changed) return { content, moved: [], notes: [] }
  const eol = parts.yaml.startsWith('\r\n') ? '\r\n' : '\n'
  const yaml = dumpFrontmatter(report.data).split('\n').join(eol)
  // The kept tail starts at the `\n` of `\n---`; a CRLF file's `\r` before it belongs to the YAML.
  const rewritten = `---${eol}${yaml}${eol === '\r\n' ? '\r' : ''}${content.slice(parts.closeAt)}`
  return { content: rewritten, moved: report.moved, notes: report.notes }
}

/** The sentence a tool result adds when the front matter was changed: "Moved 'version' under metadata to keep …". */
export function normalizationNote(normalized: Pick<NormalizedSkill, 'notes'>): string {
  if (!normalized.notes.length) return ''
  const text = normalized.notes.join('; ')
  return ` ${text[0].toUpperCase()}${text.slice(1)} to keep the skill a valid Agent Skill.`
}

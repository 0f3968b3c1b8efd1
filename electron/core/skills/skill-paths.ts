import { lstatSync, realpathSync } from 'node:fs'
import { isAbsolute, join, relative, sep } from 'node:path'

/** The only folders a skill's supporting files may live in (Agent Skills layout). */
export const SUPPORT_DIRS = ['assets', 'references', 'scripts', 'templates'] as const
export type SupportDir = (typeof SUPPORT_DIRS)[number]

/** Folders never scanned for skills (Hermes's EXCLUDED_SKILL_DIRS). */
export const EXCLUDED_DIRS: ReadonlySet<string> = new Set([
  '.git', '.github', '.hub', '.archive', '.venv', 'venv', 'node_modules', 'site-packages', '__pycache__',
  '.tox', '.nox', '.pytest_cache', '.mypy_cache', '.ruff_cache'
])

export const SKILL_FILE = 'SKILL.md'
export const ARCHIVE_DIR = '.archive'
export const NAME_PATTERN = /^[a-z0-9][a-z0-9._-]*$/
export const MAX_NAME_LENGTH = 64
export const MAX_DESCRIPTION_LENGTH = 1024
export const MAX_CONTENT_CHARS = 100_000
export const MAX_FILE_BYTES = 1_048_576
/** Bound the discovery walk, as the Agent Skills client guide advises. */
export const MAX_SCAN_DEPTH = 6
export const MAX_SCAN_DIRS = 5_000

export function isSupportDir(name: string): name is SupportDir {
  return (SUPPORT_DIRS as readonly string[]).includes(name)
}

export function formatCount(n: number): string {
  return n.toLocaleString('en-US')
}

/** Hermes's `_validate_name`, with its messages; returns null when valid. */
export function validateSkillName(name: unknown): string | null {
  if (typeof name !== 'string' || name.trim() === '') return 'Skill name is required.'
  if (name.length > MAX_NAME_LENGTH) return `Skill name exceeds ${MAX_NAME_LENGTH} characters.`
  if (!NAME_PATTERN.test(name)) {
    return `Invalid skill name '${name}'. Use lowercase letters, numbers, hyphens, dots, and underscores. Must start with a letter or digit.`
  }
  return null
}

/** A category is one folder name (Cairn never creates nested categories); empty means none. */
export function validateCategory(category: unknown): string | null {
  if (category === undefined || category === null) return null
  if (typeof category !== 'string') return 'Invalid category: it must be a string such as \'devops\', or omitted.'
  const trimmed = category.trim()
  if (trimmed === '') return null
  if (trimmed.includes('/') || trimmed.includes('\\') || trimmed.length > MAX_NAME_LENGTH || !NAME_PATTERN.test(trimmed)) {
    return `Invalid category '${category}'. Use a single folder name of lowercase letters, numbers, hyphens, dots and underscores (e.g. 'devops'), or omit category.`
  }
  return null
}

export function normalizeCategory(category: string | null | undefined): string | null {
  const trimmed = category?.trim()
  return trimmed ? trimmed : null
}

export type SupportPathCheck = { ok: true; parts: string[]; path: string } | { ok: false; error: string }

function looksAbsolute(path: string): boolean {
  return isAbsolute(path) || path.startsWith('/') || path.startsWith('\\') || /^[a-zA-Z]:/.test(path)
}

/**
 * Strict check of a supporting-file path for a write (Hermes's `_validate_file_path`, minus its hole:
 * no path naming a SKILL.md is ever a supporting file). Returns the normalised path.
 */
export function checkSupportPath(filePath: unknown): SupportPathCheck {
  if (typeof filePath !== 'string' || filePath.trim() === '') {
    return { ok: false, error: "file_path is required. Example: 'references/api-guide.md'" }
  }
  const raw = filePath.trim()
  const parts = raw.split(/[\\/]+/).filter((part) => part !== '' && part !== '.')
  if (parts.includes('..')) return { ok: false, error: "Path traversal ('..') is not allowed." }
  if (looksAbsolute(raw)) {
    return { ok: false, error: `Absolute paths are not allowed: '${raw}'. Use a path inside the skill folder, e.g. 'references/api-guide.md'.` }
  }
  if (raw.includes('\\')) {
    return { ok: false, error: `Use forward slashes in file_path: '${raw.replace(/\\/g, '/')}'.` }
  }
  if (parts.some((part) => part.toLowerCase() === SKILL_FILE.toLowerCase())) {
    return {
      ok: false,
      error: `Supporting files cannot be named ${SKILL_FILE} ('${raw}'): a SKILL.md inside a skill would be an unchecked skill. ` +
        "To change this skill's SKILL.md use action='patch' or action='edit'; to make a new skill use action='create'."
    }
  }
  if (!isSupportDir(parts[0])) {
    return { ok: false, error: `File must be under one of: ${SUPPORT_DIRS.join(', ')}. Got: '${raw}'` }
  }
  if (parts.length < 2) {
    return { ok: false, error: "Provide a file path, not just a directory. Example: 'references/myfile.md'" }
  }
  return { ok: true, parts, path: parts.join('/') }
}

/**
 * Refuses any symlink between `base` (exclusive) and `base/parts…` (inclusive), checked with lstat, so
 * a write can never leave the skill folder. Missing components are fine (they will be created).
 */
export function symlinkOnPath(base: string, parts: string[]): string | null {
  let current = base
  for (const part of parts) {
    current = join(current, part)
    try {
      if (lstatSync(current).isSymbolicLink()) return current
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null
      throw error
    }
  }
  return null
}

export function escapesMessage(displayPath: string, link: string): string {
  return `Path escapes allowed directory: '${displayPath}' goes through the symlink ${link}. ` +
    'Cairn never writes through symlinks; write to a real file inside the skill folder instead.'
}

/** True when `child` is `parent` or inside it (after resolving symlinks of both). */
export function isInside(parent: string, child: string): boolean {
  const rel = relative(parent, child)
  return rel === '' || (!rel.startsWith('..') && !isAbsolute(rel))
}

export function realpathOrNull(path: string): string | null {
  try {
    return realpathSync(path)
  } catch {
    return null
  }
}

/** `a/b` style path of `path` relative to `base`, with forward slashes on every platform. */
export function toPosixRelative(base: string, path: string): string {
  return relative(base, path).split(sep).join('/')
}

/** A skill name or `category/name` from the model, checked for traversal before any lookup. */
export function lookupNameError(name: string): string | null {
  if (name.trim() === '') return 'Skill name is required.'
  if (looksAbsolute(name)) return `Invalid skill name '${name}': absolute paths are not allowed. Pass the skill's name, e.g. 'deploy-k8s'.`
  if (name.split(/[\\/]+/).some((part) => part === '..' || part === '.')) {
    return `Invalid skill name '${name}': path traversal is not allowed. Pass the skill's name, e.g. 'deploy-k8s'.`
  }
  return null
}

/** Path of a file inside a skill for reading (tier 3): relative, no traversal. */
export function viewPathError(filePath: string): string | null {
  if (filePath.trim() === '') return 'file_path is empty. Pass a path such as \'references/api.md\', or omit it to read SKILL.md.'
  if (looksAbsolute(filePath)) return `Absolute paths are not allowed: '${filePath}'. Use a path inside the skill folder, e.g. 'references/api.md'.`
  if (filePath.split(/[\\/]+/).includes('..')) return "Path traversal ('..') is not allowed."
  return null
}

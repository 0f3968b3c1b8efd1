import { lstatSync, realpathSync } from 'node:fs'
import { codeRunningReason, isCollectedTest } from '../security/code-running-files'
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

/**
 * The name of a skill Cairn creates: {@link validateSkillName}, and a folder name that works on every
 * OS Cairn ships for and that the skill scanner sees (see {@link folderNameProblem}). Only create
 * checks this, so a skill with such a name written elsewhere can still be edited or deleted.
 */
export function validateNewSkillName(name: unknown): string | null {
  const problem = typeof name === 'string' && name.trim() !== '' && name.length <= MAX_NAME_LENGTH ? folderNameProblem(name) : null
  if (problem) return `Invalid skill name '${name}': ${problem}. Choose another name, e.g. '${suggestedFolderName(name as string, 'skill')}'.`
  return validateSkillName(name)
}

/** A category is one folder name (Cairn never creates nested categories); empty means none. Surrounding spaces are trimmed. */
export function validateCategory(category: unknown): string | null {
  if (category === undefined || category === null) return null
  if (typeof category !== 'string') return 'Invalid category: it must be a string such as \'devops\', or omitted.'
  const trimmed = category.trim()
  if (trimmed === '') return null
  if (trimmed.includes('/') || trimmed.includes('\\') || trimmed.length > MAX_NAME_LENGTH || !NAME_PATTERN.test(trimmed)) {
    return `Invalid category '${category}'. Use a single folder name of lowercase letters, numbers, hyphens, dots and underscores (e.g. 'devops'), or omit category.`
  }
  const problem = folderNameProblem(trimmed)
  if (problem) return `Invalid category '${trimmed}': ${problem}. Choose another category, e.g. '${suggestedFolderName(trimmed, 'skills')}', or omit it.`
  return null
}

/** Device names Windows reserves, alone or before any extension (`con`, `nul.md`), in any letter case. */
const WINDOWS_DEVICE_NAME = /^(?:con|prn|aux|nul|com[0-9]|lpt[0-9])(?:\.|$)/i

/**
 * Why `name` cannot be a folder Cairn creates, or null: the skill scanner skips it (the skill would be
 * saved but invisible, and a second create could not see the first), Windows reserves it for a
 * device, or Windows drops its trailing dot or space (the folder would get another name there).
 */
function folderNameProblem(name: string): string | null {
  if (/[. ]$/.test(name)) {
    return 'it ends in a dot or a space, which Windows drops from folder names, so the folder would get another name there'
  }
  if (EXCLUDED_DIRS.has(name.toLowerCase())) {
    return `Cairn's skill scanner skips folders named '${name}' (like node_modules and .git), so it would be saved but never listed or viewable`
  }
  if (WINDOWS_DEVICE_NAME.test(name)) {
    return `Windows reserves '${name.split('.')[0]}' for a device (CON, PRN, AUX, NUL, COM0–COM9, LPT0–LPT9, with or without an extension), so the folder could not be created there`
  }
  return null
}

/** A valid name close to `name`: without its trailing dots and spaces if that is enough, else `<name>-<suffix>`. */
function suggestedFolderName(name: string, suffix: string): string {
  const trimmed = name.trim().replace(/[. ]+$/, '').toLowerCase()
  if (NAME_PATTERN.test(trimmed) && trimmed.length <= MAX_NAME_LENGTH && !folderNameProblem(trimmed)) return trimmed
  const base = trimmed.replace(/[^a-z0-9]+/g, '-').replace(/^-+|-+$/g, '') || 'my'
  return `${base.slice(0, MAX_NAME_LENGTH - suffix.length - 1)}-${suffix}`
}

/**
 * Why a new skill cannot be written at `skillsDir/relParts…`, read from disk (call it holding the
 * skill's lock): a category folder that is itself a skill (a skill inside a skill is never listed), or
 * a SKILL.md already at the target that the search by name missed (another letter case on a
 * case-insensitive disk, a folder the scan skipped). Create never replaces a SKILL.md.
 */
export function newSkillFolderProblem(skillsDir: string, relParts: readonly string[]): string | null {
  for (let depth = 1; depth < relParts.length; depth++) {
    const category = relParts.slice(0, depth)
    if (pathExists(join(skillsDir, ...category, SKILL_FILE))) {
      const shown = category.join('/')
      return `Category '${shown}' is itself a skill (${shown}/${SKILL_FILE}); a skill inside another skill is never listed. ` +
        'Nothing was written. Choose another category, or omit it.'
    }
  }
  if (pathExists(join(skillsDir, ...relParts, SKILL_FILE))) {
    return `A ${SKILL_FILE} already exists at ${[...relParts, SKILL_FILE].join('/')}, although skills_list does not show it. ` +
      'Nothing was written. Choose another name, or move that folder away first.'
  }
  return null
}

/** Whether anything (file, folder, even a dangling symlink) is at `path`. */
function pathExists(path: string): boolean {
  try {
    lstatSync(path)
    return true
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code
    if (code === 'ENOENT' || code === 'ENOTDIR') return false
    throw error
  }
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
 * A supporting file a skill may be given: a plain file (no dot-file or dot-folder, nothing that makes
 * another program run code: a `package.json`, a `Makefile`, a `conftest.py`), so a skill folder that
 * lies inside a workspace never turns a saved `npm test` or `pytest` into running what the model wrote.
 */
export function checkWritableSupportPath(filePath: unknown): SupportPathCheck {
  const checked = checkSupportPath(filePath)
  if (!checked.ok) return checked
  const hidden = checked.parts.find((part) => part.startsWith('.'))
  if (hidden) return { ok: false, error: `Supporting files cannot be dot-files or lie in dot-folders ('${hidden}' in '${checked.path}'): tools read those as settings. Use a plain name, e.g. 'references/notes.md'.` }
  const runs = codeRunningReason(checked.path) ?? (isCollectedTest(checked.path) ? 'test runners collect and run it' : null)
  if (runs) return { ok: false, error: `'${checked.path}' cannot be a supporting file (${runs}), so a skill never holds one. Put the content in a plain file, e.g. 'references/${checked.parts.at(-1)}.txt'.` }
  return checked
}

/**
 * Refuses any symlink between `base` (exclusive) and `base/parts…` (inclusive), checked with lstat, so
 * a write can never leave the skill folder (shared with memory: fs/symlinks.ts).
 */
export { symlinkOnPath } from '../fs/symlinks'

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

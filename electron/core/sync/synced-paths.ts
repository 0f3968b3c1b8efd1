import { isAtomicTempName } from '../fs/atomic'
import type { MemoryTarget } from '../memory/types'
import { ARCHIVE_PATH } from './archive-file'
import { EXCLUDED_DIRS, SKILL_FILE, SUPPORT_DIRS } from '../skills/skill-paths'
import { promptNameOfPath } from '../prompts'

/** The folders of the data home a sync carries; everything else (state.db, secrets, attachments) stays on the device. */
export const SYNCED_ROOTS = ['memories', 'skills', 'sessions', 'prompts'] as const

export const MEMORY_PATHS = { 'memories/MEMORY.md': 'memory', 'memories/USER.md': 'user' } as const

/** A workspace's project memory, merged by entry like the two global files (the note naming its workspace stays on the device). */
const PROJECT_MEMORY_PATH = /^memories\/projects\/[a-z0-9][a-z0-9-]*\/PROJECT\.md$/

export function isMemoryPath(path: string): boolean {
  return Object.hasOwn(MEMORY_PATHS, path) || PROJECT_MEMORY_PATH.test(path)
}

/** The memory target a synced memory file is. */
export function memoryTargetOfPath(path: string): MemoryTarget {
  return Object.hasOwn(MEMORY_PATHS, path) ? MEMORY_PATHS[path as keyof typeof MEMORY_PATHS] : 'project'
}

/** Characters no synced name may hold: another device's tree must not name a path that means something else here (`a\\..`, `C:`). */
const UNSAFE_NAME = /[\\:\u0000-\u001f]/

/**
 * Whether a file (path relative to the home, `/`-separated) is synced: the memory files and the archive's, what is
 * under skills/ except the archive, the folders the skill scanner skips, dot files and Cairn's temp
 * files, and the devices' conversation lists under sessions/.
 */
export function isSyncedPath(path: string): boolean {
  if (isMemoryPath(path) || path === ARCHIVE_PATH) return true
  const parts = path.split('/')
  // Each device's list of its conversations (sync.sessionSummaries): `sessions/<device>.md`, nothing deeper.
  if (parts[0] === 'sessions') return parts.length === 2 && /^[a-z0-9][a-z0-9-]*\.md$/.test(parts[1])
  // The prompt library (issue 29, part F): `prompts/<name>.md`, nothing deeper.
  if (parts[0] === 'prompts') return promptNameOfPath(path) !== null
  if (parts[0] !== 'skills' || parts.length < 2) return parts.length === 1 && (SYNCED_ROOTS as readonly string[]).includes(path)
  return parts.slice(1).every((part) => part !== '' && !part.startsWith('.') && !UNSAFE_NAME.test(part) && !EXCLUDED_DIRS.has(part)) && !isAtomicTempName(parts.at(-1)!)
}

/** Which skill a synced path belongs to: its folder (`skills/devops/deploy`), name, category and the file within. */
export interface SkillPath {
  dir: string
  name: string
  category: string | null
  /** `SKILL.md`, or a supporting file such as `references/api.md`. */
  file: string
}

/**
 * `skills/<category>/<name>/SKILL.md`, `skills/<name>/SKILL.md`, or a supporting file in one of the
 * Agent Skills folders (`scripts/`, `references/`, …) of such a skill; null for anything else.
 */
export function skillPathOf(path: string): SkillPath | null {
  const parts = path.split('/')
  if (parts[0] !== 'skills') return null
  const rest = parts.slice(1)
  let dirParts: string[]
  if (rest.at(-1) === SKILL_FILE) dirParts = rest.slice(0, -1)
  else {
    const support = rest.findIndex((part, index) => index > 0 && (SUPPORT_DIRS as readonly string[]).includes(part))
    if (support < 0 || support === rest.length - 1) return null
    dirParts = rest.slice(0, support)
  }
  if (dirParts.length < 1 || dirParts.length > 2) return null
  return {
    dir: ['skills', ...dirParts].join('/'),
    name: dirParts.at(-1)!,
    category: dirParts.length === 2 ? dirParts[0] : null,
    file: rest.slice(dirParts.length).join('/')
  }
}

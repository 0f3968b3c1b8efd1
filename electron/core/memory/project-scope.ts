import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs'
import { basename, join } from 'node:path'
import { KeyedError } from '../../../shared/keyed-error'
import { projectKeyFor, realPathOf } from './project-key'
import { charCount, parseEntries } from './memory-file'

/** The workspace a store's `project` target belongs to: its key, and its real path (named in the folder for a person browsing the data home). */
export interface ProjectScope {
  key: string
  /** The workspace's real path; unknown ('') for a store opened from a ledger row or a folder alone. */
  workspace: string
}

export const PROJECTS_DIR = 'projects'
export const PROJECT_FILE = 'PROJECT.md'
/** Beside PROJECT.md: the workspace's path, so a person browsing `memories/projects/` knows whose memory it is. */
export const WORKSPACE_NOTE_FILE = 'WORKSPACE.txt'

const ledgerPathPattern = /^memories\/projects\/([^/]+)\/PROJECT\.md$/

export function projectScopeFor(workspacePath: string): ProjectScope {
  return { key: projectKeyFor(workspacePath), workspace: realPathOf(workspacePath) }
}

/** `<memories>/projects/<key>`. */
export function projectFolderOf(memoriesDir: string, key: string): string {
  return join(memoriesDir, PROJECTS_DIR, key)
}

/** The project key a ledger row's target names (`memories/projects/<key>/PROJECT.md`), or null for any other file. */
export function projectKeyOfLedgerTarget(target: string): string | null {
  return ledgerPathPattern.exec(target)?.[1] ?? null
}

/** The workspace's name as a person reads it (the folder's name). */
export function workspaceNameOf(scope: ProjectScope): string {
  return scope.workspace ? basename(scope.workspace) : scope.key
}

/**
 * Makes the project's folder and, once, the note naming its workspace. Never throws: the note is a
 * courtesy, and the write that follows reports a folder it cannot use.
 */
export function prepareProjectFolder(memoriesDir: string, scope: ProjectScope): void {
  const folder = projectFolderOf(memoriesDir, scope.key)
  try {
    mkdirSync(folder, { recursive: true })
    const note = join(folder, WORKSPACE_NOTE_FILE)
    if (scope.workspace && !existsSync(note)) writeFileSync(note, `${scope.workspace}\n`, 'utf8')
  } catch {
    // The memory write itself says what is wrong with the folder.
  }
}

/** The `project` target asked of a store that knows no workspace (no workspace chosen, the MCP server). */
export class NoProjectError extends KeyedError<'memory.no_project'> {
  constructor() {
    super('memory.no_project', {})
  }
}

/** One project memory the data home holds (`cairn memory projects`). */
export interface ProjectMemorySummary {
  key: string
  /** From the note beside PROJECT.md; '' when it is missing. */
  workspace: string
  entries: number
  chars: number
}

/** Every project memory under `memories/projects/`, by key. Never throws: an unreadable folder is skipped. */
export function listProjectMemories(memoriesDir: string): ProjectMemorySummary[] {
  const root = join(memoriesDir, PROJECTS_DIR)
  let keys: string[]
  try {
    keys = readdirSync(root, { withFileTypes: true }).filter((entry) => entry.isDirectory()).map((entry) => entry.name).sort()
  } catch {
    return []
  }
  return keys.map((key) => {
    const folder = join(root, key)
    const entries = parseEntries(readOrEmpty(join(folder, PROJECT_FILE)))
    return { key, workspace: readOrEmpty(join(folder, WORKSPACE_NOTE_FILE)).trim(), entries: entries.length, chars: charCount(entries) }
  })
}

function readOrEmpty(path: string): string {
  try {
    return readFileSync(path, 'utf8')
  } catch {
    return ''
  }
}

import { existsSync, mkdirSync, realpathSync, statSync } from 'node:fs'
import { homedir } from 'node:os'
import { basename, dirname, isAbsolute, join, relative, resolve, sep } from 'node:path'
import type { WorkspaceProblemCode } from '../../../shared/ipc/domain'

/** Why a folder cannot be a conversation's workspace. */
export type WorkspaceProblem = WorkspaceProblemCode

export class WorkspaceError extends Error {
  constructor(
    readonly code: WorkspaceProblem,
    /** The folder as it was asked for. */
    readonly path: string,
    message: string,
    /** For `forbidden`: the folder it lies in. */
    readonly root: string | null = null
  ) {
    super(message)
    this.name = 'WorkspaceError'
  }
}

export interface WorkspaceCheck {
  /** Make the folder (and its parents) when it does not exist yet, as the app does; otherwise a missing folder is refused. */
  create?: boolean
  /** Folders a workspace may not be in or be: the app's install and resources folders, Cairn's own checkout, the data home. */
  forbiddenRoots?: readonly string[]
}

/**
 * Checks a folder a conversation is to work in and returns it absolute and normalised. A folder inside
 * a forbidden root is refused by its path and by where its links really lead, before anything is created.
 */
export function checkWorkspace(path: string, options: WorkspaceCheck = {}): string {
  const asked = path
  if (!path.trim() || !isAbsolute(path)) {
    // words-ok: WorkspaceError's code, path and root are what the app words (workspace.problem.*); the CLI's usage line is English
    throw new WorkspaceError('not_absolute', asked, `The workspace must be a full path to a folder, like ${join(homedir(), 'Cairn')} (got "${asked}").`)
  }
  const folder = resolve(path)
  const real = realTarget(folder)
  for (const root of options.forbiddenRoots ?? []) {
    if (!root) continue
    const roots = [resolve(root), realTarget(resolve(root))]
    const hit = roots.find((r) => isWithin(folder, r) || isWithin(real, r))
    if (hit) {
      // words-ok: WorkspaceError's code, path and root are what the app words (workspace.problem.*); the CLI's usage line is English
      throw new WorkspaceError('forbidden', asked, `${folder} is inside ${resolve(root)}, where Cairn itself lives; Cairn never works there. Choose a folder of your own.`, resolve(root))
    }
  }
  if (!existsSync(folder)) {
    // words-ok: WorkspaceError's code, path and root are what the app words (workspace.problem.*); the CLI's usage line is English
    if (!options.create) throw new WorkspaceError('missing', asked, `There is no folder ${folder}. Create it first, or choose another.`)
    try {
      mkdirSync(folder, { recursive: true })
    } catch (error) {
      // words-ok: WorkspaceError's code, path and root are what the app words (workspace.problem.*); the CLI's usage line is English
      throw new WorkspaceError('cannot_create', asked, `Cannot create the folder ${folder}: ${(error as Error).message}`)
    }
  }
  // words-ok: WorkspaceError's code, path and root are what the app words (workspace.problem.*); the CLI's usage line is English
  if (!statSync(folder).isDirectory()) throw new WorkspaceError('not_folder', asked, `${folder} is a file, not a folder. Choose a folder.`)
  return folder
}

/**
 * The app's default workspace: `agent.workspace` from config.json when set (`~` is the user's home, a
 * relative path is taken from there), else a `Cairn` folder in the user's home.
 */
export function defaultWorkspace(configured: string | undefined, userHome: string = homedir()): string {
  const value = configured?.trim()
  if (!value) return join(userHome, 'Cairn')
  if (value === '~') return userHome
  if (value.startsWith('~/') || value.startsWith('~\\')) return join(userHome, value.slice(2))
  return resolve(userHome, value)
}

/** Where a path really leads: the real path of its nearest existing ancestor, with the rest appended. */
function realTarget(path: string): string {
  let existing = path
  const rest: string[] = []
  while (!existsSync(existing)) {
    const parent = dirname(existing)
    if (parent === existing) return path
    rest.unshift(basename(existing))
    existing = parent
  }
  try {
    return join(realpathSync(existing), ...rest)
  } catch {
    return path
  }
}

/** `path` is `root` or inside it (case-insensitively where the file system usually is). */
function isWithin(path: string, root: string): boolean {
  const fold = process.platform === 'win32' || process.platform === 'darwin' ? (p: string) => p.toLowerCase() : (p: string) => p
  const rel = relative(fold(root), fold(path))
  return rel === '' || (rel !== '..' && !rel.startsWith(`..${sep}`) && !isAbsolute(rel))
}

import { resolve } from 'node:path'
import { checkWorkspace, WorkspaceError } from '../core/sessions'
import { UsageError } from './io'

/**
 * The folder the CLI was started in. `npm run cairn` runs in the package's own folder and tells where
 * it was started in INIT_CWD: without this, every `npm run cairn` would work in Cairn's source tree.
 */
export function startFolder(env: NodeJS.ProcessEnv): string {
  return env.npm_lifecycle_event === 'cairn' && env.INIT_CWD ? env.INIT_CWD : process.cwd()
}

export interface ChatWorkspace {
  /** Where a new session works, and a resumed one that has no folder stored yet. */
  workspace: string
  /** `--workspace` was given: a resumed session moves there. */
  move: boolean
}

/**
 * Where `cairn chat` works: `--workspace DIR` (relative to the start folder) when given, else a resumed
 * session's own folder, else the folder the CLI was started in. The folder must exist: a missing one,
 * or a file, is a usage error (exit 2).
 */
export function chatWorkspace(option: string | undefined, env: NodeJS.ProcessEnv, stored: string | null): ChatWorkspace {
  const start = startFolder(env)
  if (option !== undefined) {
    if (!option.trim()) throw new UsageError('--workspace needs a folder, e.g. --workspace ~/projects/site.')
    return { workspace: existingFolder(resolve(start, option), '--workspace: '), move: true }
  }
  if (stored) {
    existingFolder(stored, 'This session works in a folder that is gone. Pass --workspace DIR to move it: ')
    return { workspace: stored, move: false }
  }
  return { workspace: existingFolder(start, 'The current folder cannot be the workspace: '), move: false }
}

function existingFolder(path: string, prefix: string): string {
  try {
    return checkWorkspace(path)
  } catch (error) {
    if (error instanceof WorkspaceError) throw new UsageError(prefix + error.message)
    throw error
  }
}

import type { ToolDef } from '../tools/types'
import { createEditFileTool } from './edit-file'
import { createFetchUrlTool } from './fetch-url'
import { createListDirTool } from './list-dir'
import { createReadFileTool } from './read-file'
import { createRunCommandTool } from './run-command'
import { createSearchFilesTool } from './search-files'
import { createWriteFileTool } from './write-file'

export { APPROVAL_TOOLS } from './approval'

export interface WorkspaceToolsOptions {
  /** Default workspace when ctx.workspace is unset (else the process's cwd). */
  workspace?: string
  /** Folders write_file and edit_file never write (the data home), see WorkspaceEnv. */
  protectedRoots?: readonly string[]
  /** Time between SIGTERM and SIGKILL when run_command stops a command (default 2 s). */
  killGraceMs?: number
}

/** The tools the assistant uses to work in the user's files: read, write, edit, list, search, run, fetch. */
export function createWorkspaceTools(options: WorkspaceToolsOptions = {}): ToolDef[] {
  const env = { defaultWorkspace: options.workspace, protectedRoots: options.protectedRoots }
  return [
    createReadFileTool(env),
    createWriteFileTool(env),
    createEditFileTool(env),
    createListDirTool(env),
    createSearchFilesTool(env),
    createRunCommandTool(env, { killGraceMs: options.killGraceMs }),
    createFetchUrlTool()
  ]
}

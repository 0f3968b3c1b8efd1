import { homedir } from 'node:os'
import { IpcError } from '../../../shared/ipc/define'
import type { AppHome } from './app-home'
import { checkWorkspace, defaultWorkspace, WorkspaceError } from '../sessions'

export interface AppWorkspacesOptions {
  core: Pick<AppHome, 'config' | 'paths'>
  /** The user's home, where the default `Cairn` folder is made (default: os.homedir()). */
  userHome?: string
  /** Folders no conversation may work in: the app's install and resources folders (from the shell), Cairn's checkout in browser mode. */
  forbiddenRoots?: readonly string[]
}

/**
 * The folders the app's conversations work in: a new one in the folder the user chose, else in
 * config `agent.workspace`, else `~/Cairn` (made on first use); never inside Cairn's own program
 * folders or its data home (where a file tool would bypass the ledger).
 */
export class AppWorkspaces {
  constructor(private readonly options: AppWorkspacesOptions) {}

  /** Where a new conversation works unless the user picks a folder (not created until used). */
  defaultFolder(): string {
    return defaultWorkspace(this.options.core.config.get().agent.workspace, this.options.userHome ?? homedir())
  }

  /**
   * A folder the user chose or a conversation has, checked (absolute, a folder, not forbidden) and
   * created when missing. Refusals are `WORKSPACE` errors whose params say why, for the UI to word.
   */
  use(path: string): string {
    return this.checked(path, true)
  }

  /** Like {@link use} for a route that only reads a folder: the same checks, and a missing folder is refused, never made. */
  check(path: string): string {
    return this.checked(path, false)
  }

  private checked(path: string, create: boolean): string {
    try {
      return checkWorkspace(path, { create, forbiddenRoots: this.forbiddenRoots() })
    } catch (error) {
      if (!(error instanceof WorkspaceError)) throw error
      throw new IpcError('WORKSPACE', error.message, { problem: error.code, path: error.path, ...(error.root ? { root: error.root } : {}) })
    }
  }

  private forbiddenRoots(): string[] {
    return [...(this.options.forbiddenRoots ?? []), this.options.core.paths.root]
  }
}

import type { IpcHandlers } from '../../../../shared/ipc/contract'
import { IpcError } from '../../../../shared/ipc/define'
import { isAbsolute } from 'node:path'
import { NoProjectError, workspaceNameOf } from '../../memory/project-scope'
import { readProjectInstructions } from '../../workspace/project-instructions'
import { memoryStoreView } from './memory'
import type { LibrarySlice } from './route-slices'

type ProjectRoutes = 'memory.project' | 'workspace.instructions' | 'workspace.openInstructions'

/** Issue 28, part B: a workspace's project memory for the Memory screen, and its instruction files for the chat header. */
export function projectMemoryHandlers(app: LibrarySlice): Pick<IpcHandlers, ProjectRoutes> {
  const absolute = (workspace: string): string => {
    if (!isAbsolute(workspace)) throw IpcError.carrying('NOT_FOUND', new NoProjectError())
    return workspace
  }
  return {
    'memory.project': async ({ workspace }) => {
      const store = app.core.memory.forWorkspace(absolute(workspace))
      const scope = store.project!
      return { ...memoryStoreView(app, store, 'project'), workspace: scope.workspace, name: workspaceNameOf(scope) }
    },
    'workspace.instructions': async ({ workspace }) =>
      readProjectInstructions(app.workspaces.check(workspace)).map((file) => ({ file: file.file, path: file.path, loaded: file.text !== '', cut: file.cut, blocked: file.blocked })),
    // Only a file the workspace's instructions are read from: the route never opens an arbitrary path.
    'workspace.openInstructions': async ({ workspace, file }) => {
      const found = readProjectInstructions(app.workspaces.check(workspace)).find((item) => item.file === file)
      if (!found) throw IpcError.of('NOT_FOUND', 'workspace.no_instructions', { file })
      const openPath = app.options.platform.openPath
      // The system opens a file by its kind: only Markdown is handed to it (an extension-less `.cursorrules`
      // from a cloned repository could be run as a program); for the others the header shows the path.
      if (!openPath || !found.path.toLowerCase().endsWith('.md')) return { path: found.path, opened: false }
      await openPath(found.path)
      return { path: found.path, opened: true }
    }
  }
}

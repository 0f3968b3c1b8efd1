import { shell } from 'electron'
import { IpcError } from '../../../shared/ipc/define'

/**
 * Opens a folder in the system file manager. The core only passes folders it resolved itself (a
 * skill's), never a path from the renderer. `shell.openPath` answers an error string instead of throwing.
 */
export async function openFolder(path: string): Promise<void> {
  const problem = await shell.openPath(path)
  if (problem) throw IpcError.of('UNSUPPORTED', 'folder.open_failed', { path, problem })
}

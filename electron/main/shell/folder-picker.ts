import type { BrowserWindow, OpenDialogOptions, OpenDialogReturnValue } from 'electron'

/** The part of Electron's dialog used here (injected, so this logic is tested without Electron). */
export interface OpenDialog {
  showOpenDialog(window: BrowserWindow, options: OpenDialogOptions): Promise<OpenDialogReturnValue>
}

export interface FolderPickerOptions {
  dialog: OpenDialog
  /** The window the picker belongs to (the main window: it asked); null while the app quits. */
  parent(): BrowserWindow | null
  /** The picker's title, in the user's language. */
  title(): string
}

/**
 * The system's folder picker for a conversation's workspace: one folder, which the user may create
 * in the picker. Answers the chosen folder, or null when the user cancels. What it answers is
 * checked by the core like a typed path (absolute, a folder, not one of Cairn's own).
 */
export function folderPicker(options: FolderPickerOptions): (request: { defaultPath?: string }) => Promise<string | null> {
  return async ({ defaultPath }) => {
    const parent = options.parent()
    if (!parent) return null
    const result = await options.dialog.showOpenDialog(parent, {
      title: options.title(),
      properties: ['openDirectory', 'createDirectory'],
      ...(defaultPath ? { defaultPath } : {})
    })
    if (result.canceled) return null
    return result.filePaths[0] ?? null
  }
}

/**
 * The system's file picker for an import (an export's .zip or .json): one existing file. Answers the
 * chosen file, or null when the user cancels; the core checks it like a typed path.
 */
export function filePicker(options: FolderPickerOptions): (request: { defaultPath?: string; filters?: Array<{ name: string; extensions: string[] }> }) => Promise<string | null> {
  return async ({ defaultPath, filters }) => {
    const parent = options.parent()
    if (!parent) return null
    const result = await options.dialog.showOpenDialog(parent, {
      title: options.title(),
      properties: ['openFile'],
      ...(filters ? { filters } : {}),
      ...(defaultPath ? { defaultPath } : {})
    })
    if (result.canceled) return null
    return result.filePaths[0] ?? null
  }
}

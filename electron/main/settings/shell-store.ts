import { parseWindowState, windowStateToSave, type WindowState } from '../windows/window-state'

/** The part of electron-store (its base class `conf`) the shell store uses. */
export interface ShellStoreBackend {
  readonly path: string
  /** Reading parses the file afresh ({} when it is missing or, with `clearInvalidConfig`, damaged). */
  readonly store: Record<string, unknown>
  /** Sets these keys (others stay) and writes the file atomically. */
  set(values: Record<string, unknown>): void
}

/** The file name in Electron's userData folder (kept from when it held only the window's place). */
export const SHELL_STATE_NAME = 'window-state'

/**
 * State that belongs to the Electron shell alone, such as the main window's size and place: an
 * electron-store file in Electron's userData folder. Settings are not here: config.json has one
 * owner, the core's ConfigStore. Losing this state is harmless, so a damaged file starts afresh.
 */
export class ShellStore {
  constructor(private readonly backend: ShellStoreBackend) {}

  get path(): string {
    return this.backend.path
  }

  /** The main window's last size and place; null the first time or when what is saved makes no sense. */
  windowState(): WindowState | null {
    try {
      return parseWindowState(this.backend.store)
    } catch {
      return null // unreadable (permissions): the default place will do
    }
  }

  saveWindowState(state: WindowState): void {
    this.backend.set({ ...windowStateToSave(state) })
  }
}

/** Options the app passes to electron-store (see open-settings.ts; the tests pass the same to `conf`). */
export const shellStoreOptions = {
  name: SHELL_STATE_NAME,
  // A damaged file reads as empty: the window opens at its default place and the next save repairs it.
  clearInvalidConfig: true,
  serialize: (value: Record<string, unknown>): string => JSON.stringify(value, null, 2) + '\n'
}

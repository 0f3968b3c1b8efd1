import { BrowserWindow, screen } from 'electron'
import type { AppOrigin } from './app-origin'
import { hardenWebContents, secureWebPreferences } from './hardening'
import { loadPage } from './load-page'
import { placeWindow } from './window-state'
import { log } from '../log'
import type { ShellStore } from '../settings/shell-store'

export interface MainWindowOptions {
  origin: AppOrigin
  preload: string
  /** Remembers the window's size and position between runs. */
  shellState: ShellStore
  icon?: string
  /** True when closing should hide the window instead (the tray keeps the app reachable). */
  hideOnClose(): boolean
}

const DEFAULT_SIZE = { width: 1100, height: 760 }

export function createMainWindow(options: MainWindowOptions): BrowserWindow {
  const workAreas = screen.getAllDisplays().map((display) => display.workArea)
  const placement = placeWindow(options.shellState.windowState(), workAreas, DEFAULT_SIZE)
  const window = new BrowserWindow({
    ...placement.bounds,
    minWidth: 640,
    minHeight: 440,
    show: false,
    title: 'Cairn',
    ...(options.icon ? { icon: options.icon } : {}),
    webPreferences: secureWebPreferences(options.preload)
  })
  hardenWebContents(window.webContents, options.origin)
  window.once('ready-to-show', () => {
    if (placement.maximized) window.maximize()
    window.show()
  })
  window.on('close', (event) => {
    rememberPlace(window, options.shellState)
    if (options.hideOnClose()) {
      event.preventDefault()
      window.hide()
    }
  })
  // ready-to-show never comes for a page that failed to load: show the window anyway, not an invisible app.
  loadPage(window, 'index', options.origin, () => {
    if (!window.isDestroyed() && !window.isVisible()) window.show()
  })
  return window
}

/** Writes the window's size and place for the next start (on close, and when quitting). */
export function rememberPlace(window: BrowserWindow, shellState: ShellStore): void {
  if (window.isDestroyed()) return
  try {
    const maximized = window.isMaximized()
    // getNormalBounds: the size to restore to, not the maximized one.
    shellState.saveWindowState({ bounds: maximized ? window.getNormalBounds() : window.getBounds(), maximized })
  } catch (error) {
    log.warn(`could not remember the window position: ${(error as Error).message}`)
  }
}

import { BrowserWindow, screen } from 'electron'
import type { AppOrigin } from './app-origin'
import { hardenWebContents, secureWebPreferences } from './hardening'
import { loadPage } from './load-page'
import { placeWindow, readWindowState, writeWindowState } from './window-state'
import { log } from '../log'

export interface MainWindowOptions {
  origin: AppOrigin
  preload: string
  /** JSON file remembering size and position (in Electron's userData folder). */
  stateFile: string
  icon?: string
  /** True when closing should hide the window instead (the tray keeps the app reachable). */
  hideOnClose(): boolean
}

const DEFAULT_SIZE = { width: 1100, height: 760 }

export function createMainWindow(options: MainWindowOptions): BrowserWindow {
  const workAreas = screen.getAllDisplays().map((display) => display.workArea)
  const placement = placeWindow(readWindowState(options.stateFile), workAreas, DEFAULT_SIZE)
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
    rememberPlace(window, options.stateFile)
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
export function rememberPlace(window: BrowserWindow, file: string): void {
  if (window.isDestroyed()) return
  try {
    const maximized = window.isMaximized()
    // getNormalBounds: the size to restore to, not the maximized one.
    writeWindowState(file, { bounds: maximized ? window.getNormalBounds() : window.getBounds(), maximized })
  } catch (error) {
    log.warn(`could not remember the window position: ${(error as Error).message}`)
  }
}

import { BrowserWindow, screen } from 'electron'
import type { AppOrigin } from './app-origin'
import { hardenWebContents, secureWebPreferences } from './hardening'
import { loadPage } from './load-page'

export interface QuickWindowOptions {
  origin: AppOrigin
  preload: string
}

const SIZE = { width: 560, height: 420 }

/** The quick prompt: small, frameless, above other windows, out of the taskbar; hidden when it loses focus. */
export function createQuickWindow(options: QuickWindowOptions): BrowserWindow {
  const window = new BrowserWindow({
    ...SIZE,
    useContentSize: true,
    show: false,
    frame: false,
    resizable: false,
    minimizable: false,
    maximizable: false,
    fullscreenable: false,
    alwaysOnTop: true,
    skipTaskbar: true,
    title: 'Cairn quick prompt',
    webPreferences: secureWebPreferences(options.preload)
  })
  window.setAlwaysOnTop(true, 'floating')
  window.setVisibleOnAllWorkspaces(true, { visibleOnFullScreen: true })
  hardenWebContents(window.webContents, options.origin)
  window.on('blur', () => {
    if (!window.webContents.isDevToolsOpened()) window.hide()
  })
  loadPage(window, 'quick', options.origin)
  return window
}

/** Centres the window on the display under the mouse pointer, then shows and focuses it. */
export function showQuickWindow(window: BrowserWindow): void {
  const area = screen.getDisplayNearestPoint(screen.getCursorScreenPoint()).workArea
  const [width, height] = window.getSize()
  window.setBounds({
    x: Math.round(area.x + (area.width - width) / 2),
    y: Math.round(area.y + (area.height - height) / 2),
    width,
    height
  })
  window.show()
  window.focus()
}

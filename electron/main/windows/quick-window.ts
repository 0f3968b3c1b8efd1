import { BrowserWindow, screen } from 'electron'
import type { AppOrigin } from './app-origin'
import { hardenWebContents, secureWebPreferences } from './hardening'
import { loadPage } from './load-page'
import { EVERYWHERE, type QuickPlacement } from './quick-placement'

export type { QuickPlacement } from './quick-placement'

export interface QuickWindowOptions {
  origin: AppOrigin
  preload: string
  placement?: QuickPlacement
}

const SIZE = { width: 560, height: 420 }

/** The quick prompt: small, frameless, above other windows, out of the taskbar; hidden when it loses focus. */
export function createQuickWindow(options: QuickWindowOptions): BrowserWindow {
  const placement = options.placement ?? EVERYWHERE
  const window = new BrowserWindow({
    ...SIZE,
    useContentSize: true,
    show: false,
    frame: false,
    resizable: false,
    minimizable: false,
    maximizable: false,
    fullscreenable: false,
    alwaysOnTop: placement.staysOnTop,
    skipTaskbar: true,
    title: 'Cairn quick prompt',
    webPreferences: secureWebPreferences(options.preload)
  })
  if (placement.staysOnTop) {
    window.setAlwaysOnTop(true, 'floating')
    // skipTransformProcessType: without it macOS turns the app into a foreground app and back each
    // time, which hides the window and flashes the Dock icon.
    window.setVisibleOnAllWorkspaces(true, { visibleOnFullScreen: true, skipTransformProcessType: true })
  }
  hardenWebContents(window.webContents, options.origin)
  window.on('blur', () => {
    if (!window.webContents.isDevToolsOpened()) window.hide()
  })
  loadPage(window, 'quick', options.origin)
  return window
}

/** Centres the window on the display under the pointer (or the primary one where that is unknown), then shows and focuses it. */
export function showQuickWindow(window: BrowserWindow, placement: QuickPlacement = EVERYWHERE): void {
  const display = placement.followsPointer ? screen.getDisplayNearestPoint(screen.getCursorScreenPoint()) : screen.getPrimaryDisplay()
  const area = display.workArea
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

import type { BrowserWindow } from 'electron'
import { pageLocation, type AppOrigin, type AppPage } from './app-origin'
import { log } from '../log'

/** Loads one of our pages: the dev server in development, the built file otherwise. */
export function loadPage(window: BrowserWindow, page: AppPage, origin: AppOrigin, onFailure?: () => void): void {
  const location = pageLocation(page, origin)
  const loading = location.kind === 'url' ? window.loadURL(location.url) : window.loadFile(location.path)
  loading.catch((error: Error) => {
    const where = location.kind === 'url' ? location.url : location.path
    log.error(`could not load ${where} (run "npm run build" if it is missing)`, error)
    onFailure?.()
  })
}

/** Sends to a window's page, after it has loaded when it is still loading (a freshly created window). */
export function sendWhenLoaded(window: BrowserWindow, channel: string, ...args: unknown[]): void {
  if (window.isDestroyed()) return
  const contents = window.webContents
  const send = () => {
    if (!window.isDestroyed()) contents.send(channel, ...args)
  }
  if (contents.isLoading()) contents.once('did-finish-load', send)
  else send()
}

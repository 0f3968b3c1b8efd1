import { shell, type Session, type WebContents, type WebPreferences } from 'electron'
import { externalUrl, isAppUrl, type AppOrigin } from './app-origin'
import { log } from '../log'

/**
 * Every Cairn window runs sandboxed and isolated: model output, skill files and memory entries are
 * untrusted text, and an XSS in the renderer must not reach Node or the file system.
 */
export function secureWebPreferences(preload: string): WebPreferences {
  return {
    preload,
    sandbox: true,
    contextIsolation: true,
    nodeIntegration: false,
    nodeIntegrationInWorker: false,
    nodeIntegrationInSubFrames: false,
    webSecurity: true,
    allowRunningInsecureContent: false,
    webviewTag: false,
    experimentalFeatures: false,
    navigateOnDragDrop: false,
    // Elsewhere Chromium downloads Hunspell dictionaries from a Google CDN; macOS uses its own checker.
    spellcheck: process.platform === 'darwin'
  }
}

/** Same policy as the pages' meta tag, plus what only a header can say (frame-ancestors). */
export const CONTENT_SECURITY_POLICY =
  "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; font-src 'self' data:; " +
  "connect-src 'self'; object-src 'none'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'"

/**
 * Development only: Vite's React refresh preamble is an inline script placed before the page's meta
 * CSP, and hot reload talks over a WebSocket to the dev server. Everything after the meta tag still
 * gets the strict policy, because a page obeys every policy it is given.
 */
export function devContentSecurityPolicy(devServerUrl: string): string {
  const server = new URL(devServerUrl)
  const socket = `${server.protocol === 'https:' ? 'wss' : 'ws'}://${server.host}`
  return (
    "default-src 'self'; script-src 'self' 'unsafe-inline'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; font-src 'self' data:; " +
    `connect-src 'self' ${socket}; object-src 'none'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'`
  )
}

/** Clipboard writes back the "copy" buttons (write only, from our own pages); every other permission is refused. */
const ALLOWED_PERMISSIONS: ReadonlySet<string> = new Set(['clipboard-sanitized-write'])

export function hardenSession(session: Session, origin: AppOrigin): void {
  session.setPermissionRequestHandler((webContents, permission, callback) => {
    const allowed = ALLOWED_PERMISSIONS.has(permission) && isAppUrl(webContents.getURL(), origin)
    if (!allowed) log.warn(`denied the "${permission}" permission`)
    callback(allowed)
  })
  session.setPermissionCheckHandler((webContents, permission) => ALLOWED_PERMISSIONS.has(permission) && isAppUrl(webContents?.getURL(), origin))
  const policy = origin.devServerUrl ? devContentSecurityPolicy(origin.devServerUrl) : CONTENT_SECURITY_POLICY
  session.webRequest.onHeadersReceived((details, callback) => {
    const headers = { ...details.responseHeaders }
    for (const name of Object.keys(headers)) {
      if (name.toLowerCase() === 'content-security-policy') delete headers[name]
    }
    callback({ responseHeaders: { ...headers, 'Content-Security-Policy': [policy] } })
  })
  session.on('will-download', (event) => {
    event.preventDefault()
    log.warn('blocked a download started by a page')
  })
}

/** Pages stay on the app's own files; new windows are refused and https links go to the system browser. */
export function hardenWebContents(contents: WebContents, origin: AppOrigin): void {
  contents.on('will-navigate', (event, url) => {
    if (isAppUrl(url, origin)) return
    event.preventDefault()
    log.warn(`blocked navigation to ${url.slice(0, 200)}`)
  })
  contents.on('will-redirect', (event, url) => {
    if (isAppUrl(url, origin)) return
    event.preventDefault()
  })
  contents.on('will-attach-webview', (event) => event.preventDefault())
  contents.setWindowOpenHandler(({ url }) => {
    void openExternalSafely(url)
    return { action: 'deny' }
  })
}

/** The only way Cairn opens a link outside: parsed, `https:` only, in the system browser. */
export async function openExternalSafely(url: string): Promise<boolean> {
  const safe = externalUrl(url)
  if (!safe) {
    log.warn(`refused to open ${url.slice(0, 200)} outside Cairn (only https links open in the browser)`)
    return false
  }
  await shell.openExternal(safe)
  return true
}

import { isAbsolute, join, relative } from 'node:path'
import { fileURLToPath } from 'node:url'

/** Where the app's own pages come from: the built renderer folder, or the dev server in development. */
export interface AppOrigin {
  /** Absolute path of the built renderer (`out/renderer`). */
  rendererDir: string
  /** The electron-vite dev server (`ELECTRON_RENDERER_URL`) in development, else null. */
  devServerUrl: string | null
}

/** The two windows' pages (renderer/index.html and renderer/quick.html). */
export type AppPage = 'index' | 'quick'

export type PageLocation = { kind: 'url'; url: string } | { kind: 'file'; path: string }

export function appOrigin(rendererDir: string, env: NodeJS.ProcessEnv = process.env): AppOrigin {
  const devServerUrl = env.ELECTRON_RENDERER_URL?.trim() || null
  return { rendererDir, devServerUrl: devServerUrl && parseUrl(devServerUrl) ? devServerUrl : null }
}

/** What a window loads: the dev server page in development, the built file otherwise. */
export function pageLocation(page: AppPage, origin: AppOrigin): PageLocation {
  if (origin.devServerUrl) return { kind: 'url', url: new URL(`${page}.html`, withSlash(origin.devServerUrl)).href }
  return { kind: 'file', path: join(origin.rendererDir, `${page}.html`) }
}

/**
 * True only for the app's own pages: a `file:` URL inside the built renderer folder, or a URL on the
 * dev server's origin. Used to allow navigation and to trust IPC senders, so it parses instead of
 * comparing prefixes (`file:///app/out/renderer-evil/x.html` must not pass).
 */
export function isAppUrl(url: string | null | undefined, origin: AppOrigin): boolean {
  if (!url) return false
  const parsed = parseUrl(url)
  if (!parsed) return false
  if (parsed.protocol === 'file:') {
    let path: string
    try {
      path = fileURLToPath(parsed)
    } catch {
      return false
    }
    const inside = relative(origin.rendererDir, path)
    return inside !== '' && !inside.startsWith('..') && !isAbsolute(inside)
  }
  if (!origin.devServerUrl) return false
  const dev = parseUrl(origin.devServerUrl)
  return dev !== null && (parsed.protocol === 'http:' || parsed.protocol === 'https:') && parsed.origin === dev.origin
}

/** Only `https:` links leave the app, and only to the system browser. */
export function externalUrl(url: string): string | null {
  const parsed = parseUrl(url)
  if (!parsed || parsed.protocol !== 'https:' || !parsed.hostname) return null
  return parsed.href
}

function parseUrl(url: string): URL | null {
  try {
    return new URL(url)
  } catch {
    return null
  }
}

function withSlash(url: string): string {
  return url.endsWith('/') ? url : `${url}/`
}

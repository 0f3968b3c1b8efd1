import { isPreloadBridge, preloadTransport, type Transport } from './transport'
import { wsTransport } from './ws-transport'

export type WindowKind = 'main' | 'quick'

export type TransportChoice = { kind: 'ready'; transport: Transport } | { kind: 'missing-token' }

/**
 * A page address's hash as the main window's route (`/timeline`, see app/history.ts) and its other
 * parameters (`token=…`, `session=…`): `#/timeline?token=x`, or just `#token=x`.
 */
export function splitHash(hash: string): { path: string; params: string } {
  const bare = hash.replace(/^#/, '')
  if (!bare.startsWith('/')) return { path: '', params: bare }
  const query = bare.indexOf('?')
  return query < 0 ? { path: bare, params: '' } : { path: bare.slice(0, query), params: bare.slice(query + 1) }
}

const hashParams = (hash: string): URLSearchParams => new URLSearchParams(splitHash(hash).params)

/** Reads `#token=…` from the page address (browser mode: the URL `cairn serve` printed). */
export function tokenFromHash(hash: string): string | null {
  const params = hashParams(hash)
  const token = params.get('token')
  return token && token.trim() ? token.trim() : null
}

/** `#…&session=<id>`: the conversation a browser-mode main page should open (from the quick prompt). */
export function sessionFromHash(hash: string): string | null {
  const session = hashParams(hash).get('session')
  return session && session.trim() ? session.trim() : null
}

/** The hash without its `session` part, so a reload does not force that conversation again (the route stays). */
export function hashWithoutSession(hash: string): string {
  const { path } = splitHash(hash)
  const params = hashParams(hash)
  params.delete('session')
  const rest = params.toString()
  return path ? (rest ? `#${path}?${rest}` : `#${path}`) : `#${rest}`
}

/** Browser mode: the main page's address for this server and token, opening `sessionId` if given. */
export function mainPageUrl(location: { origin: string; hash: string }, sessionId?: string | null): string | null {
  const token = tokenFromHash(location.hash)
  if (!token) return null
  const params = new URLSearchParams({ token })
  if (sessionId) params.set('session', sessionId)
  return `${location.origin}/#${params.toString()}`
}

/**
 * Desktop when the preload bridge is there; otherwise browser mode over a WebSocket to the
 * server that served this page, authenticated by the token in the URL fragment.
 */
export function pickTransport(target: Window, windowKind: WindowKind): TransportChoice {
  if (isPreloadBridge(target.cairn)) return { kind: 'ready', transport: preloadTransport(target.cairn) }
  const token = tokenFromHash(target.location.hash)
  if (!token) return { kind: 'missing-token' }
  const scheme = target.location.protocol === 'https:' ? 'wss' : 'ws'
  const query = new URLSearchParams({ token })
  if (windowKind === 'quick') query.set('window', 'quick')
  return { kind: 'ready', transport: wsTransport({ url: `${scheme}://${target.location.host}/ws?${query.toString()}` }) }
}

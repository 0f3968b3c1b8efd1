import { createHash, randomBytes, timingSafeEqual } from 'node:crypto'

/** A fresh access token for the HTTP server: 32 random bytes, URL-safe. */
export function newAccessToken(): string {
  return randomBytes(32).toString('base64url')
}

const LOCAL_HOSTNAMES = new Set(['localhost', '127.0.0.1', '[::1]'])

/** Why a request is turned away before MCP sees it, with the status to answer. */
export interface Refusal {
  status: 401 | 403 | 404
  message: string
}

/**
 * Checks one request to the HTTP server, in order: the path (`/mcp` only), the Host header (exactly
 * `127.0.0.1:<port>` or `localhost:<port>`, so a DNS-rebound name pointing at 127.0.0.1 is refused),
 * the Origin (absent for non-browser clients; when present, a localhost origin), then the token
 * (`Authorization: Bearer <token>` or a `token` query parameter, compared in constant time).
 */
export function checkRequest(request: Request, port: number, token: string): Refusal | null {
  const url = new URL(request.url)
  if (url.pathname !== '/mcp') return { status: 404, message: 'Not found: the MCP endpoint is /mcp.' }
  const host = request.headers.get('host')?.toLowerCase() ?? ''
  if (host !== `127.0.0.1:${port}` && host !== `localhost:${port}`) return { status: 403, message: `Forbidden: Host must be 127.0.0.1:${port} or localhost:${port}.` }
  const origin = request.headers.get('origin')
  if (origin !== null && !isLocalOrigin(origin)) return { status: 403, message: 'Forbidden: requests from web pages other than localhost are refused.' }
  if (!sameSecret(presentedToken(request, url), token)) return { status: 401, message: 'Unauthorized: pass the token printed by `cairn mcp serve` as "Authorization: Bearer <token>" or ?token=<token>.' }
  return null
}

function isLocalOrigin(origin: string): boolean {
  try {
    const url = new URL(origin)
    return (url.protocol === 'http:' || url.protocol === 'https:') && LOCAL_HOSTNAMES.has(url.hostname)
  } catch {
    return false
  }
}

function presentedToken(request: Request, url: URL): string | null {
  const header = request.headers.get('authorization')
  const bearer = header?.match(/^Bearer\s+(\S+)\s*$/i)?.[1]
  return bearer ?? url.searchParams.get('token')
}

/** Compares digests, so the time taken says nothing about the token, not even its length. */
function sameSecret(presented: string | null, expected: string): boolean {
  if (presented === null) return false
  const digest = (text: string) => createHash('sha256').update(text).digest()
  return timingSafeEqual(digest(presented), digest(expected))
}

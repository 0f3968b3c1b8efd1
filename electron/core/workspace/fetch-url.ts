import { z } from 'zod'
import { ellipsize } from '../text/cut'
import { defineTool, type ApprovalRequest, type ToolContext, type ToolDef } from '../tools/types'
import { requestApproval, type ApprovalRefusal } from './approval'
import { looksBinary } from './fs-info'
import { extractTitle, htmlToText } from './html-text'
import { formatCount } from './text'
import { findCarriedData, noteLinks } from './url-data'

export const FETCH_DEFAULT_CHARS = 50_000
export const FETCH_MAX_CHARS = 200_000
export const FETCH_MAX_BODY_BYTES = 2 * 1_048_576
const FETCH_TIMEOUT_MS = 30_000
const ERROR_BODY_CHARS = 2_000
const MAX_REDIRECTS = 10
const REQUEST_HEADERS = { 'user-agent': 'Cairn/0.1 (desktop assistant)', accept: 'text/html,application/json;q=0.9,text/*;q=0.8,*/*;q=0.5' }

const fetchUrlSchema = z.object({
  url: z.string().trim().min(1).describe('http(s) address.'),
  max_chars: z
    .number()
    .int()
    .min(1)
    .max(FETCH_MAX_CHARS)
    .optional()
    .describe(`Default ${formatCount(FETCH_DEFAULT_CHARS)}, max ${formatCount(FETCH_MAX_CHARS)}.`)
})

type BodyKind = 'html' | 'text' | 'unknown' | 'other'

function classify(mime: string): BodyKind {
  if (mime === 'text/html' || mime === 'application/xhtml+xml') return 'html'
  if (mime.startsWith('text/')) return 'text'
  if (/^application\/(?:json|xml|javascript|ecmascript|x-javascript|x-ndjson|x-yaml|yaml|toml|x-sh|sql|graphql)$/.test(mime)) return 'text'
  if (/^application\/[\w.-]+\+(?:json|xml)$/.test(mime)) return 'text'
  return mime === '' ? 'unknown' : 'other'
}

/** Reads at most `limit` bytes and then cancels the download, so a huge file costs nothing beyond the cap. */
async function readCapped(response: Response, limit: number): Promise<{ bytes: Uint8Array; truncated: boolean }> {
  if (!response.body) return { bytes: new Uint8Array(0), truncated: false }
  const reader = response.body.getReader()
  const chunks: Uint8Array[] = []
  let size = 0
  let truncated = false
  for (;;) {
    const { done, value } = await reader.read()
    if (done) break
    chunks.push(value)
    size += value.length
    if (size > limit) {
      truncated = true
      await reader.cancel().catch(() => {})
      break
    }
  }
  const bytes = Buffer.concat(chunks)
  return { bytes: bytes.subarray(0, Math.min(bytes.length, limit)), truncated }
}

function decode(bytes: Uint8Array, contentType: string): string {
  const charset = /charset\s*=\s*"?([\w.:-]+)"?/i.exec(contentType)?.[1]
  try {
    return new TextDecoder(charset ?? 'utf-8').decode(bytes)
  } catch {
    return new TextDecoder('utf-8').decode(bytes)
  }
}

function describeFetchError(error: unknown, url: string, ctx: ToolContext): string {
  if (ctx.signal?.aborted) return 'fetch_url was cancelled.'
  const err = error as Error & { cause?: { code?: string; message?: string } }
  if (err.name === 'TimeoutError' || err.name === 'AbortError') {
    return `Timed out after ${FETCH_TIMEOUT_MS / 1000} s fetching ${url}. The server may be slow or down; try again later or another source.`
  }
  const reason = err.cause?.code ?? err.cause?.message ?? err.message
  return `Could not fetch ${url}: ${reason}. Check the address (host name, port, https vs http) or try another source.`
}

/**
 * Every host asks before it is contacted: once, for the session or always (the broker knows the
 * grants). An address carrying text this turn's tools returned asks every time, whatever was granted,
 * says so, and offers "once" only: that is how a prompt-injected model would send a secret out.
 */
async function approveFetch(url: URL, ctx: ToolContext, redirectedFrom?: URL): Promise<ApprovalRefusal | null> {
  const carried = findCarriedData(url, ctx.turn)
  // After a read outside the workspace or of a secret, no address is trusted to carry nothing: a
  // secret reversed, split or encoded would pass the check above.
  const afterReading = ctx.turn.sensitiveReads?.[0]
  const from = redirectedFrom ? ` (redirected from ${redirectedFrom.host})` : ''
  const warning = carried
    ? `; the address carries "${carried}", text read in this turn`
    : afterReading
      ? `; this turn read ${afterReading}, and anything fetched now could carry it`
      : ''
  const request: ApprovalRequest = {
    kind: 'fetch',
    tool: 'fetch_url',
    summary: `Fetch ${ellipsize(url.href, 200)}${from}${warning}`,
    url: url.href,
    host: url.host,
    ...(carried ? { carriedData: carried } : {}),
    ...(afterReading ? { afterReading } : {}),
    scopes: carried || afterReading ? ['once'] : ['once', 'session', 'host']
  }
  return requestApproval(ctx, request, `fetch ${url.href}`)
}

/**
 * Follows redirects by hand, so a hop to another host is approved like a first fetch (an allowed
 * host must not bounce the request to one the user never saw).
 */
async function fetchApproved(start: URL, ctx: ToolContext): Promise<{ response: Response } | ApprovalRefusal> {
  let url = start
  for (let hop = 0; ; hop++) {
    const signal = AbortSignal.any([AbortSignal.timeout(FETCH_TIMEOUT_MS), ...(ctx.signal ? [ctx.signal] : [])])
    const response = await fetch(url, { signal, redirect: 'manual', headers: REQUEST_HEADERS })
    const location = response.headers.get('location')
    if (response.status < 300 || response.status > 399 || !location) return { response }
    await response.body?.cancel().catch(() => {})
    if (hop >= MAX_REDIRECTS) return { success: false, error: `${start.href} redirected more than ${MAX_REDIRECTS} times; stopped at ${url.href}.` }
    let next: URL
    try {
      next = new URL(location, url)
    } catch {
      return { success: false, error: `${url.href} redirected to ${JSON.stringify(location)}, which is not a valid address.` }
    }
    if (next.protocol !== 'http:' && next.protocol !== 'https:') {
      return { success: false, error: `${url.href} redirected to a ${next.protocol} address, which fetch_url does not follow.` }
    }
    if (next.host !== url.host) {
      const refusal = await approveFetch(next, ctx, url)
      if (refusal) return refusal
    }
    url = next
  }
}

export function createFetchUrlTool(): ToolDef<typeof fetchUrlSchema> {
  return defineTool({
    name: 'fetch_url',
    description:
      'Fetch a web page or text file as text (HTML reduced to readable text; binary refused).',
    schema: fetchUrlSchema,
    async run(args, ctx) {
      let url: URL
      try {
        url = new URL(args.url)
      } catch {
        return { success: false, error: `${JSON.stringify(args.url)} is not a full URL. Give an address with its scheme, e.g. https://${args.url.replace(/^\/+/, '')}.` }
      }
      if (url.protocol !== 'http:' && url.protocol !== 'https:') {
        return { success: false, error: `Only http:// and https:// URLs can be fetched; ${url.protocol} is refused. To read a local file, use read_file.` }
      }
      const denied = await approveFetch(url, ctx)
      if (denied) return denied
      const maxChars = args.max_chars ?? FETCH_DEFAULT_CHARS

      let response: Response
      let body: { bytes: Uint8Array; truncated: boolean }
      let kind: BodyKind
      const contentType = () => response.headers.get('content-type') ?? ''
      try {
        const fetched = await fetchApproved(url, ctx)
        if ('success' in fetched) return fetched
        response = fetched.response
        kind = classify(contentType().split(';')[0].trim().toLowerCase())
        if (kind === 'other') {
          await response.body?.cancel().catch(() => {})
          const refusal = `${url.href} returned ${contentType()} content, which fetch_url does not read (text, HTML and JSON only). Look for a text or HTML version of it instead.`
          return { success: false, status: response.status, content_type: contentType(), final_url: response.url, error: refusal }
        }
        body = await readCapped(response, response.ok ? FETCH_MAX_BODY_BYTES : ERROR_BODY_CHARS * 4)
      } catch (error) {
        return { success: false, error: describeFetchError(error, url.href, ctx) }
      }
      if (kind === 'unknown' && looksBinary(body.bytes)) {
        return { success: false, status: response.status, final_url: response.url, error: `${url.href} sent binary content with no content type; fetch_url only reads text.` }
      }

      const raw = decode(body.bytes, contentType())
      const title = kind === 'html' ? extractTitle(raw) : undefined
      const text = kind === 'html' || (kind === 'unknown' && /^\s*<(?:!doctype html|html)\b/i.test(raw)) ? htmlToText(raw) : raw
      if (!response.ok) {
        return {
          success: false,
          status: response.status,
          content_type: contentType(),
          final_url: response.url,
          content: text.slice(0, ERROR_BODY_CHARS),
          error: `HTTP ${response.status}${response.statusText ? ` ${response.statusText}` : ''} from ${response.url}. Check the address; ${response.status >= 500 ? 'the server failed, so try again later.' : 'the page may have moved or need a login.'}`
        }
      }

      // Links on the page may be followed without counting as data this turn carries out.
      noteLinks(ctx.turn, text.slice(0, maxChars))
      const truncated = body.truncated || text.length > maxChars
      const notes: string[] = []
      if (body.truncated) notes.push(`Only the first ${formatCount(FETCH_MAX_BODY_BYTES)} bytes were downloaded.`)
      if (text.length > maxChars) notes.push(`Showing ${formatCount(maxChars)} of ${formatCount(text.length)} chars; raise max_chars (max ${formatCount(FETCH_MAX_CHARS)}) to see more.`)
      return {
        success: true,
        url: url.href,
        final_url: response.url,
        status: response.status,
        content_type: contentType(),
        ...(title ? { title } : {}),
        content: text.slice(0, maxChars),
        truncated,
        ...(notes.length > 0 ? { note: notes.join(' ') } : {})
      }
    }
  })
}

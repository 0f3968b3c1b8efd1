import type { TurnState } from '../tools/types'

/**
 * Does an address carry data this turn's tools returned? A prompt-injected model that just read a
 * secret sends it out in a URL (`https://collector/?k=<secret>`); such a fetch must always ask.
 * Checked against what the URL would reveal, decoded: user info, host labels, path, query and
 * fragment, also after percent, base64 and hex decoding.
 */

/** A shared run of this many characters counts as carried data. */
export const CARRIED_MIN_CHARS = 12
/** A whole token this long counts too when it looks like a secret (letters and digits mixed). */
export const CARRIED_MIN_TOKEN = 8
/** Links remembered per turn from fetched pages (a huge page should not cost unbounded memory). */
const MAX_LINKS = 5_000

/**
 * The text of `url` that carries data read this turn (a short excerpt for the approval request), or
 * null. A URL that itself appeared in a page fetched this turn is a followed link and carries nothing.
 */
export function findCarriedData(url: URL, turn: TurnState): string | null {
  if (turn.toolOutputs.length === 0) return null
  if (turn.fetchedLinks.has(linkKey(url))) return null
  const texts = revealedTexts(url)
  return sharedRun(texts, turn.toolOutputs) ?? sharedToken(texts, turn.toolOutputs)
}

/** Remembers the http(s) addresses a fetched page mentions, so following one does not count as carrying data. */
export function noteLinks(turn: TurnState, text: string): void {
  for (const match of text.matchAll(/\bhttps?:\/\/[^\s"'<>()[\]{}\\^`|]+/gi)) {
    if (turn.fetchedLinks.size >= MAX_LINKS) return
    try {
      turn.fetchedLinks.add(linkKey(new URL(match[0].replace(/[.,;:!?]+$/, ''))))
    } catch {
      // not an address after all
    }
  }
}

function linkKey(url: URL): string {
  const copy = new URL(url.href)
  copy.hash = ''
  return copy.href
}

/** Everything the address would tell its server (and DNS), in every decoding worth trying. */
function revealedTexts(url: URL): string[] {
  const parts = [url.username, url.password, url.hostname.split('.').slice(0, -2).join('.'), url.pathname, url.search, url.hash]
  const texts = new Set<string>()
  for (const part of parts) {
    if (!part) continue
    for (const decoded of percentDecodings(part)) {
      texts.add(decoded)
      for (const extra of binaryDecodings(decoded)) texts.add(extra)
    }
  }
  return [...texts]
}

/** The text as written, then decoded (query `+` as space) up to three times, for double encoding. */
function percentDecodings(text: string): string[] {
  const out = [text]
  let current = text
  for (let i = 0; i < 3; i++) {
    const next = decodePercent(current.replace(/\+/g, ' '))
    if (next === current) break
    out.push(next)
    current = next
  }
  return out
}

function decodePercent(text: string): string {
  try {
    return decodeURIComponent(text)
  } catch {
    // A stray `%` spoils the whole string for decodeURIComponent: decode the valid escapes one by one.
    return text.replace(/(?:%[0-9a-fA-F]{2})+/g, (run) => {
      try {
        return decodeURIComponent(run)
      } catch {
        return run
      }
    })
  }
}

/** base64 (standard or URL-safe) and hex runs decoded, when what comes out is readable text. */
function binaryDecodings(text: string): string[] {
  const out: string[] = []
  for (const [token] of text.matchAll(/[A-Za-z0-9+/_-]{16,}={0,2}/g)) {
    const decoded = Buffer.from(token.replace(/-/g, '+').replace(/_/g, '/'), 'base64').toString('utf8')
    if (readable(decoded)) out.push(decoded)
  }
  for (const [token] of text.matchAll(/(?:[0-9a-fA-F]{2}){12,}/g)) {
    const decoded = Buffer.from(token, 'hex').toString('utf8')
    if (readable(decoded)) out.push(decoded)
  }
  return out
}

function readable(text: string): boolean {
  if (text.length < CARRIED_MIN_CHARS) return false
  let printable = 0
  for (const char of text) if (char >= ' ' && char !== '\uFFFD' && char !== '\x7f') printable++
  return printable / text.length > 0.9
}

/**
 * A run of at least CARRIED_MIN_CHARS characters found both in the address and in the data. One pass
 * over the data against the address's windows (few) keeps it linear in what the turn read.
 */
function sharedRun(texts: string[], outputs: readonly string[]): string | null {
  const windows = new Map<string, { text: string; at: number }>()
  for (const text of texts) {
    const lower = text.toLowerCase()
    for (let i = 0; i + CARRIED_MIN_CHARS <= lower.length; i++) {
      const window = lower.slice(i, i + CARRIED_MIN_CHARS)
      if (meaningful(window) && !windows.has(window)) windows.set(window, { text, at: i })
    }
  }
  if (windows.size === 0) return null
  for (const output of outputs) {
    for (let i = 0; i + CARRIED_MIN_CHARS <= output.length; i++) {
      const hit = windows.get(output.slice(i, i + CARRIED_MIN_CHARS))
      if (hit) return excerpt(hit.text, hit.at, output, i)
    }
  }
  return null
}

/** Padding, repeats and plain punctuation are not data worth protecting. */
function meaningful(window: string): boolean {
  let alnum = 0
  for (const char of window) if (/[\p{L}\p{N}]/u.test(char)) alnum++
  return alnum >= 6 && new Set(window).size >= 5
}

/** The whole run the address and the data share around a hit (as the address writes it), capped for a one-line prompt. */
function excerpt(text: string, at: number, output: string, outputAt: number): string {
  const lower = text.toLowerCase()
  let start = at
  let end = at + CARRIED_MIN_CHARS
  for (let back = 1; start > 0 && outputAt - back >= 0 && lower[start - 1] === output[outputAt - back]; back++) start--
  for (let ahead = CARRIED_MIN_CHARS; end < lower.length && lower[end] === output[outputAt + ahead]; ahead++) end++
  const found = text.slice(start, end).replace(/^[^\p{L}\p{N}]+|[^\p{L}\p{N}]+$/gu, '')
  return found.length > 80 ? `${found.slice(0, 79)}…` : found
}

/** A short secret-looking token of the address (a password, a PIN-like key) that is a whole token in the data. */
function sharedToken(texts: string[], outputs: readonly string[]): string | null {
  const tokens = new Set<string>()
  for (const text of texts) {
    for (const [token] of text.matchAll(/[A-Za-z0-9_-]+/g)) if (token.length >= CARRIED_MIN_TOKEN && secretLooking(token)) tokens.add(token)
  }
  for (const token of tokens) {
    const lower = token.toLowerCase()
    for (const output of outputs) {
      for (let at = output.indexOf(lower); at !== -1; at = output.indexOf(lower, at + 1)) {
        if (!/[a-z0-9_-]/.test(output[at - 1] ?? ' ') && !/[a-z0-9_-]/.test(output[at + lower.length] ?? ' ')) return token
      }
    }
  }
  return null
}

/** Letters and digits mixed, as in keys and passwords (`hunter42x`); plain words (`JavaScript`) and numbers are not. */
function secretLooking(token: string): boolean {
  return /[A-Za-z]/.test(token) && /[0-9]/.test(token)
}

import { approvalChains } from './approval-rules'
import { credentialPatterns } from './credential-paths'
import { destinationSource, exfilChains, toDestination, zhToDestination } from './exfil-rules'
import { prepareMatchText, type MatchText } from './match-text'
import { remoteCodeChains } from './remote-code-rules'
import { ChainMatcher, type Chain } from './rule-engine'

/**
 * What a skill change adds that could hurt the user if an assistant followed it, as data: a command
 * that fetches and runs remote code, a host it would talk to that it did not name before, a path to a
 * credential store, an instruction to skip approvals. No wording here: callers show codes and details.
 * Linear in the text: the rule engine's chains and regexes whose repeats are bounded.
 */
export type SkillDangerCode = 'remote_code' | 'network_destination' | 'credentials_path' | 'approval_bypass'

export interface SkillDanger {
  code: SkillDangerCode
  /** The piece that shows it, cut to about 120 characters: the command line, the host, the path, the phrase. */
  detail: string
}

/** A danger and where it is in the folded text. */
interface Located extends SkillDanger {
  start: number
  end: number
}

const DETAIL_MAX = 120

/**
 * The dangers `after` has that `before` did not have (compared by code and detail, so a patch to a
 * skill that already named a host adds nothing for that host), each once, in text order.
 */
export function skillChangeDangers(before: string | null, after: string): SkillDanger[] {
  const known = new Set(before ? skillDangers(before).map(dangerKey) : [])
  return skillDangers(after).filter((danger) => !known.has(dangerKey(danger)))
}

/** Every danger in `text`, each code+detail once, in text order. */
export function skillDangers(text: string): SkillDanger[] {
  if (text.length === 0) return []
  const seen = new Set<string>()
  const dangers: SkillDanger[] = []
  for (const { code, detail } of locateDangers(text)) {
    const key = dangerKey({ code, detail })
    if (detail === '' || seen.has(key)) continue
    seen.add(key)
    dangers.push({ code, detail })
  }
  return dangers
}

function dangerKey(danger: SkillDanger): string {
  return `${danger.code}\u0000${danger.detail}`
}

function locateDangers(raw: string): Located[] {
  const prepared = prepareMatchText(raw)
  const scan = new Scan(raw, prepared)
  const found = [...remoteCode(scan), ...networkDestinations(scan), ...credentialPaths(scan), ...approvalBypass(scan)]
  return withoutOverlaps(found)
}

/** The folded text, its matcher, and the raw text the details are cut from. */
class Scan {
  readonly text: string
  readonly matcher: ChainMatcher
  private newlines: Int32Array | null = null

  constructor(
    private readonly raw: string,
    private readonly prepared: MatchText
  ) {
    this.text = prepared.text
    this.matcher = new ChainMatcher(prepared.text)
  }

  /** The raw text behind folded [start, end). */
  rawSlice(start: number, end: number): string {
    if (end <= start) return ''
    return this.raw.slice(this.prepared.toRawOffset(start), this.prepared.toRawOffset(end - 1) + 1)
  }

  /** Bounds of the folded line holding `index`. */
  lineAround(index: number): { start: number; end: number } {
    const newlines = this.newlineOffsets()
    let low = 0
    let high = newlines.length
    while (low < high) {
      const mid = (low + high) >> 1
      if (newlines[mid] < index) low = mid + 1
      else high = mid
    }
    return { start: low > 0 ? newlines[low - 1] + 1 : 0, end: low < newlines.length ? newlines[low] : this.text.length }
  }

  /** Each match of `rule` once per start, shortest first: [start, end) spans in the folded text. */
  spans(rule: Chain): { start: number; end: number }[] {
    const { ends, origins } = this.matcher.matches(rule)
    const shortest = new Map<number, number>()
    for (let i = 0; i < ends.length; i++) if (!shortest.has(origins[i])) shortest.set(origins[i], ends[i])
    return [...shortest].map(([start, end]) => ({ start, end }))
  }

  private newlineOffsets(): Int32Array {
    if (this.newlines) return this.newlines
    const offsets: number[] = []
    for (let i = this.text.indexOf('\n'); i !== -1; i = this.text.indexOf('\n', i + 1)) offsets.push(i)
    this.newlines = Int32Array.from(offsets)
    return this.newlines
  }
}

/**
 * One line of at most DETAIL_MAX characters, ending in `…` when cut (as ellipsize in core/text/cut.ts,
 * which this layer may not import).
 */
function oneLine(text: string): string {
  const flat = text.replace(/\s+/g, ' ').trim()
  return flat.length <= DETAIL_MAX ? flat : `${flat.slice(0, DETAIL_MAX - 1).trimEnd()}…`
}

/** The command line a remote-code match sits on; from the command on when the line is long. */
function remoteCode(scan: Scan): Located[] {
  return Object.values(remoteCodeChains).flatMap((rule) =>
    scan.spans(rule).map(({ start, end }) => {
      const line = scan.lineAround(start)
      const whole = scan.rawSlice(line.start, line.end).trim()
      const detail = whole.length <= DETAIL_MAX ? oneLine(whole) : oneLine(scan.rawSlice(start, line.end))
      return { code: 'remote_code' as const, detail, start, end: Math.max(end, line.end) }
    })
  )
}

function approvalBypass(scan: Scan): Located[] {
  const phrases = Object.values(approvalChains).flatMap((rule) =>
    scan.spans(rule).map(({ start, end }) => ({ code: 'approval_bypass' as const, detail: oneLine(scan.rawSlice(start, end)), start, end }))
  )
  const flags = [...scan.text.matchAll(agentApprovalFlag)].map((match) => ({
    code: 'approval_bypass' as const,
    detail: match[0],
    start: match.index,
    end: match.index + match[0].length
  }))
  return [...phrases, ...flags]
}

/** Flags that run a coding agent without asking (package managers' `--yes` is not one). */
const agentApprovalFlag =
  /--(?:dangerously-skip-permissions|allow-dangerously-skip-permissions|dangerously-bypass-approvals-and-sandbox|yolo|always-approve|auto-approve|trust-all-tools|skip-permissions|full-auto|bypass-approvals?)(?![\w-])/g

function credentialPaths(scan: Scan): Located[] {
  const found: Located[] = []
  for (const pattern of credentialPatterns) {
    for (const match of scan.text.matchAll(pattern.regex)) {
      const piece = match[1] ?? match[0]
      const start = match.index + match[0].length - piece.length
      const end = match.index + match[0].length
      if (pattern.skip?.test(piece)) continue
      found.push({ code: 'credentials_path', detail: oneLine(scan.rawSlice(start, end)), start, end })
    }
  }
  return found
}

/** Host of a URL with a network scheme (credentials skipped). */
const urlHost =
  /(?<![a-z0-9+.-])(?:https?|ftps?|sftp|wss?|git\+ssh|ssh|git|rsync|telnet):\/\/(?:[^\s/@?#]{1,128}@)?(\[[0-9a-f:.]{2,45}\]|[a-z0-9._~%-]{1,253})/g
/** `user@host` (scp/rsync/ssh targets when followed by `:` or on a line that runs ssh). */
const userAtHost = /(?<![\w.%+@-])[a-z0-9_][a-z0-9._-]{0,31}@([a-z0-9][a-z0-9.-]{0,252}|\[[0-9a-f:.]{2,45}\])/g
const sshCommand = /\b(?:ssh|scp|sftp|rsync|mosh|sshfs)(?![\w-])/g
/** `nc host port`, `telnet host port`, optionally after a flag or two (`-e /bin/sh`). */
const netcat =
  /\b(?:nc|ncat|netcat|telnet)\s{1,8}(?:-[a-z]{1,6}(?:\s{1,8}\/[\w/.-]{1,64})?\s{1,8})?(?:-[a-z]{1,6}(?:\s{1,8}\/[\w/.-]{1,64})?\s{1,8})?([a-z0-9][a-z0-9.-]{0,252})\s{1,8}\d{1,5}(?![\w.])/g
const devTcp = /\/dev\/(?:tcp|udp)\/([a-z0-9][a-z0-9.-]{0,252})\/\d{1,5}/g
/**
 * A command that sends to or fetches from an address. A URL counts as a destination only on a line
 * with one: a link in the prose (documentation, a project's home) is not somewhere a skill sends data.
 */
const networkCommand =
  /(?:\b(?:curl|wget|httpie|xh|aria2c|lftp|ftp|websocat|wscat|invoke-webrequest|invoke-restmethod|iwr|irm|axios)\b|\bhttp\s{1,4}(?:get|post|put|patch|delete)\b|\bfetch\s{0,2}\(|\brequests\.(?:get|post|put|patch|delete)\b|\bgit\s{1,4}(?:clone|remote\s{1,4}add|push|pull|fetch)\b|\bconnect(?:s|ed|ing)?\s{1,4}to\b)/g

function networkDestinations(scan: Scan): Located[] {
  const found: Located[] = []
  const add = (host: string, start: number, end: number) => {
    const clean = cleanHost(host)
    if (clean) found.push({ code: 'network_destination', detail: clean, start, end })
  }
  const commandLines = new Set([...scan.text.matchAll(networkCommand)].map((match) => scan.lineAround(match.index).start))
  for (const match of scan.text.matchAll(urlHost)) {
    if (commandLines.has(scan.lineAround(match.index).start)) add(match[1], match.index, match.index + match[0].length)
  }
  for (const pattern of [netcat, devTcp]) {
    for (const match of scan.text.matchAll(pattern)) add(match[1], match.index, match.index + match[0].length)
  }
  const sshLines = new Set([...scan.text.matchAll(sshCommand)].map((match) => scan.lineAround(match.index).start))
  for (const match of scan.text.matchAll(userAtHost)) {
    const end = match.index + match[0].length
    if (scan.text[end] === ':' || sshLines.has(scan.lineAround(match.index).start)) add(match[1], match.index, end)
  }
  // A bare host or IP named as where something is sent ("mirror every file to evil.example").
  const sendEnds = new Set([exfilChains.exfil_verb_to_url, exfilChains.exfil_zh_verb_to_url].flatMap((rule) => scan.matcher.matches(rule).ends))
  for (const destination of [toDestination, zhToDestination]) {
    for (const match of scan.text.matchAll(new RegExp(destination.source, 'g'))) {
      const end = match.index + match[0].length
      if (!sendEnds.has(end)) continue
      const host = bareDestinationHost(scan.text.slice(match.index, end + 253))
      if (host) add(host, match.index, end)
    }
  }
  return found
}

const destination = new RegExp(destinationSource)
const hostAtStart = /^(?:[a-z][a-z0-9+.-]{0,15}:\/\/(?:[^\s/@]{1,64}@)?)?(\[[0-9a-f:.]{2,45}\]|[a-z0-9.-]{1,253})/

/** The host in a short "to <destination>" piece: the destination's, without scheme and credentials. */
function bareDestinationHost(piece: string): string | null {
  const at = destination.exec(piece)
  const found = at ? hostAtStart.exec(piece.slice(at.index)) : null
  return found ? found[1] : null
}

/** Loopback hosts, RFC 2606 documentation domains, placeholders (`your-server.com`, `your-cluster.cloud.x.io`). */
const ignoredHost =
  /^(?:(?:[a-z0-9-]{1,63}\.)?localhost|127(?:\.\d{1,3}){3}|0\.0\.0\.0|\[(?:::1|0:0:0:0:0:0:0:1)\]|(?:[a-z0-9-]{1,63}\.){0,8}example\.(?:com|org|net)|your[-_.]?[a-z0-9-]{0,40}(?:\.[a-z0-9-]{1,63}){0,8})$/
const ipv4 = /^\d{1,3}(?:\.\d{1,3}){3}$/

/**
 * Lower-case host without trailing dots; null for ignored hosts and for names without a dot (`db`,
 * `url`, an ssh alias: a placeholder or a name only the local network or ~/.ssh/config resolves).
 */
function cleanHost(host: string | undefined): string | null {
  if (!host) return null
  const clean = host.toLowerCase().replace(/^\.+|\.+$/g, '')
  if (clean.length === 0 || clean.length > 253 || ignoredHost.test(clean)) return null
  if (clean.startsWith('[')) return clean
  if (!clean.includes('.') || clean.startsWith('-') || clean.includes('..')) return null
  if (!/[a-z]/.test(clean) && !ipv4.test(clean)) return null
  return clean
}

/** Keeps, per code, the first of dangers that overlap (the earliest start, then the longest). */
function withoutOverlaps(found: Located[]): Located[] {
  const sorted = [...found].sort((a, b) => a.start - b.start || b.end - a.end)
  const reachedBy = new Map<SkillDangerCode, number>()
  return sorted.filter((danger) => {
    if (danger.start < (reachedBy.get(danger.code) ?? 0)) return false
    reachedBy.set(danger.code, danger.end)
    return true
  })
}

import { createHash } from 'node:crypto'
import { existsSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { LogFile } from '../fs/log-file'
import { redactSecrets } from './server-env'
import { sanitizeNamePart } from './tool-names'

/** Past this size the log moves to `<server>.log.1` (one old file kept), so a chatty server never fills the disk. */
export const MCP_LOG_MAX_BYTES = 1_000_000
/** Lines kept in memory for `McpServerInfo.logTail`. */
const TAIL_LINES = 20
/** Longest line kept: a server writing megabytes without a newline costs neither memory nor disk. */
export const MCP_LOG_LINE_MAX = 2000

/**
 * One server's log: its stderr lines and Cairn's own lines about it (start, ready, failure, restart),
 * each stamped, with the resolved secret values replaced before anything is written or kept.
 */
export class McpServerLog {
  readonly path: string
  private readonly tail: string[] = []
  private partial = ''
  /** The stderr line in progress passed the limit and was written cut: the rest of it is dropped. */
  private cutLine = false
  private secrets: readonly string[] = []
  private writeFailed = false
  private readonly file: LogFile

  constructor(dir: string, server: string) {
    this.path = join(dir, logFileName(server))
    this.file = new LogFile(this.path, { maxBytes: MCP_LOG_MAX_BYTES, keep: 1 })
  }

  /** The secret values the server was started with (replaced in every later line). */
  setSecrets(secrets: readonly string[]): void {
    this.secrets = secrets
  }

  /** `text` with the server's secret values replaced, for an error or a result that leaves this process. */
  redact(text: string): string {
    return redactSecrets(text, this.secrets)
  }

  /** A line of Cairn's own about the server. */
  note(text: string): void {
    this.write(`[cairn] ${text}`)
  }

  /** A chunk of the server's stderr: written line by line as lines complete. */
  stderr(chunk: string): void {
    const lines = (this.partial + chunk).split(/\r?\n/)
    this.partial = lines.pop() ?? ''
    for (const line of lines) {
      if (this.cutLine) this.cutLine = false
      else if (line.trim()) this.write(line)
    }
    if (!this.cutLine && this.partial.length > MCP_LOG_LINE_MAX) {
      this.write(this.partial)
      this.cutLine = true
    }
    if (this.cutLine) this.partial = ''
  }

  /** Writes what is left of a stderr line without its newline (the server exited mid-line). */
  flush(): void {
    if (this.partial.trim()) this.write(this.partial)
    this.partial = ''
    this.cutLine = false
  }

  /** The last lines (stderr and Cairn's), as `McpServerInfo.logTail` shows them. */
  tailText(): string {
    return this.tail.join('\n')
  }

  /** The last stderr lines only, for an error message about a server that exited. */
  stderrTail(lines = 8): string {
    return this.tail.filter((line) => !line.includes('[cairn] ')).slice(-lines).join('\n')
  }

  /** The log file's end (this process's and earlier ones'); empty when nothing was logged yet. */
  read(maxChars = 64_000): string {
    try {
      const text = existsSync(this.path) ? readFileSync(this.path, 'utf8') : ''
      return text.length > maxChars ? text.slice(text.length - maxChars) : text
    } catch (error) {
      return `Could not read ${this.path}: ${(error as Error).message}`
    }
  }

  private write(text: string): void {
    const clean = redactSecrets(text, this.secrets)
    const cut = clean.length > MCP_LOG_LINE_MAX ? `${clean.slice(0, MCP_LOG_LINE_MAX)} … (${clean.length - MCP_LOG_LINE_MAX} more characters not logged)` : clean
    const line = `${new Date().toISOString()} ${cut}`
    this.tail.push(line)
    if (this.tail.length > TAIL_LINES) this.tail.shift()
    if (this.file.append(line)) {
      this.writeFailed = false
      return
    }
    // The tail still shows it; say once per failure spell that the file does not.
    if (!this.writeFailed) console.error(`cairn: could not write the MCP log ${this.path}`)
    this.writeFailed = true
  }
}

// Names Windows will not give a file, whatever the extension.
const RESERVED = /^(con|prn|aux|nul|com\d|lpt\d)$/i

/** `<server>.log`; a name that had to be cleaned (or is reserved) gets a hash, so `a.b` and `a_b` never share a log. */
export function logFileName(server: string): string {
  const clean = sanitizeNamePart(server)
  if (clean === server && !RESERVED.test(server)) return `${server}.log`
  return `${clean}-${createHash('sha256').update(server).digest('hex').slice(0, 8)}.log`
}

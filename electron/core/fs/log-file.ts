import { appendFileSync, existsSync, mkdirSync, renameSync, rmSync, statSync } from 'node:fs'
import { dirname } from 'node:path'

export interface LogFileOptions {
  /** Past this size the file moves to `<name>.1` (and older ones one step further). */
  maxBytes?: number
  /** How many old files to keep beside the current one. */
  keep?: number
}

const DEFAULT_MAX_BYTES = 1_000_000
const DEFAULT_KEEP = 2

/**
 * An append-only log file that rotates by size (`main.log`, `main.log.1`, `main.log.2`), so a long
 * run never fills the disk. Each line is appended synchronously: the lines before a crash are on disk
 * when the process dies, which is when a log is read. A write that fails is dropped (a log must never
 * break what it records); `append` says whether it landed.
 */
export class LogFile {
  private readonly maxBytes: number
  private readonly keep: number

  constructor(
    readonly path: string,
    options: LogFileOptions = {}
  ) {
    this.maxBytes = options.maxBytes ?? DEFAULT_MAX_BYTES
    this.keep = options.keep ?? DEFAULT_KEEP
  }

  append(line: string): boolean {
    try {
      mkdirSync(dirname(this.path), { recursive: true })
      if (existsSync(this.path) && statSync(this.path).size > this.maxBytes) this.rotate()
      appendFileSync(this.path, line.endsWith('\n') ? line : `${line}\n`)
      return true
    } catch {
      return false
    }
  }

  private rotate(): void {
    if (this.keep < 1) {
      rmSync(this.path, { force: true })
      return
    }
    rmSync(`${this.path}.${this.keep}`, { force: true })
    for (let index = this.keep - 1; index >= 1; index--) {
      if (existsSync(`${this.path}.${index}`)) renameSync(`${this.path}.${index}`, `${this.path}.${index + 1}`)
    }
    renameSync(this.path, `${this.path}.1`)
  }
}

/** One stamped line: `2026-12-05T10:00:00.000Z WARN message`, with an error's stack indented below it. */
export function logLine(level: 'info' | 'warn' | 'error', message: string, error?: unknown, now = new Date()): string {
  const detail = error === undefined ? '' : `\n  ${(error instanceof Error ? (error.stack ?? error.message) : String(error)).replace(/\n/g, '\n  ')}`
  return `${now.toISOString()} ${level.toUpperCase()} ${message}${detail}`
}

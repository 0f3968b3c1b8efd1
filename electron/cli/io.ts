import type { Language } from '../../shared/i18n'
import { ellipsize } from '../core/text/cut'

/** Where the CLI writes; injectable so commands can be run in-process. */
export interface CliIO {
  out(text: string): void
  err(text: string): void
  /** True when stdout is a terminal (colour, progress lines). */
  isTTY: boolean
}

export const processIO: CliIO = {
  out: (text) => void process.stdout.write(text),
  err: (text) => void process.stderr.write(text),
  isTTY: Boolean(process.stdout.isTTY)
}

/** Bad command-line usage: printed with a hint, exit code 2. */
export class UsageError extends Error {
  constructor(message: string) {
    super(message)
    this.name = 'UsageError'
  }
}

/** A command failed in a way the user must see (exit code 1), without a stack trace. */
export class CliFailure extends Error {
  constructor(
    message: string,
    /** Words it in the user's language (see `wordedFailure`); the message is its English. */
    readonly wordedIn: (language: Language) => string = () => message
  ) {
    super(message)
    this.name = 'CliFailure'
  }
}

export function printJson(io: CliIO, value: unknown): void {
  io.out(JSON.stringify(value, null, 2) + '\n')
}

/** Shortens text to one line of at most `max` characters for tables. */
export function oneLine(text: string | null | undefined, max = 80): string {
  return ellipsize(text, max)
}

export function formatTime(iso: string | number): string {
  const date = new Date(iso)
  const pad = (n: number) => String(n).padStart(2, '0')
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())} ${pad(date.getHours())}:${pad(date.getMinutes())}`
}

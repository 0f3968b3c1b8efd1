import { LogFile, logLine } from '../core/fs/log-file'

let file: LogFile | null = null

/**
 * Main-process log lines: on the terminal that started the app (prefixed so they stand out) and,
 * once the data home is known, in `<home>/logs/main.log` (rotated), which is where a user who
 * started Cairn from the Dock or a menu finds them (`cairn doctor` names the file).
 */
export const log = {
  info(message: string): void {
    console.log(`cairn: ${message}`)
    file?.append(logLine('info', message))
  },
  warn(message: string): void {
    console.warn(`cairn: ${message}`)
    file?.append(logLine('warn', message))
  },
  error(message: string, error?: unknown): void {
    console.error(`cairn: ${message}`, ...(error === undefined ? [] : [error]))
    file?.append(logLine('error', message, error))
  }
}

/** From now on every line also goes to this file; an uncaught exception is recorded there too. */
export function logToFile(path: string): void {
  const first = file === null
  file = new LogFile(path)
  if (!first) return
  // Monitors only: Electron's own handling of an uncaught exception (its dialog) is unchanged.
  process.on('uncaughtExceptionMonitor', (error) => file?.append(logLine('error', 'uncaught exception', error)))
}

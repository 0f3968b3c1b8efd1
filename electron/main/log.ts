/** Main-process log lines, prefixed so they stand out in the terminal that started the app. */
export const log = {
  info(message: string): void {
    console.log(`cairn: ${message}`)
  },
  warn(message: string): void {
    console.warn(`cairn: ${message}`)
  },
  error(message: string, error?: unknown): void {
    console.error(`cairn: ${message}`, ...(error === undefined ? [] : [error]))
  }
}

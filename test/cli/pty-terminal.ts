import { spawn } from 'node:child_process'
import { stripVTControlCharacters } from 'node:util'

/** Single quotes for sh: the command `script` runs is one shell line. */
function shellQuote(word: string): string {
  return `'${word.replace(/'/g, `'\\''`)}'`
}

export interface PtyOptions {
  cwd: string
  env: NodeJS.ProcessEnv
  columns?: number
  rows?: number
}

/**
 * Runs a command on a real pseudo-terminal through util-linux `script` (in Debian's essential
 * bsdutils, so on every machine and CI): what the test writes arrives as typed keys (Enter is "\r",
 * Ctrl+C "\x03", Ctrl+D "\x04"), and the command sees a terminal on stdin, stdout and stderr, which
 * share the one screen the test reads.
 */
export function startPty(file: string, args: string[], options: PtyOptions) {
  // A pty made by `script` without a terminal of its own has no size: give it one, as a window would.
  const line = `stty cols ${options.columns ?? 100} rows ${options.rows ?? 40}; exec ${[file, ...args].map(shellQuote).join(' ')}`
  const child = spawn('script', ['-qfec', line, '/dev/null'], { cwd: options.cwd, env: options.env, stdio: ['pipe', 'pipe', 'pipe'] })
  let screen = ''
  let read = 0
  const waiters: Array<() => void> = []
  const changed = () => waiters.splice(0).forEach((wake) => wake())
  child.stdout.on('data', (data) => ((screen += data), changed()))
  child.stderr.on('data', (data) => ((screen += data), changed()))
  const exited = new Promise<number | null>((resolve) => child.on('close', (code) => (changed(), resolve(code))))
  let exitCode: number | null | undefined
  void exited.then((code) => (exitCode = code))
  return {
    /** Sends keys as typed. */
    type: (keys: string) => void child.stdin.write(keys),
    /** Everything the terminal showed, escape sequences included. */
    screen: () => screen,
    /** The screen as plain text (styling and cursor sequences removed). */
    text: () => stripVTControlCharacters(screen),
    /**
     * Waits until what the terminal showed since the last wait matches (at the child's own pace, no
     * timers), and gives that stretch of raw output; fails if the command exits first.
     */
    async waitFor(pattern: RegExp): Promise<string> {
      for (;;) {
        const fresh = screen.slice(read)
        const match = pattern.exec(stripVTControlCharacters(fresh))
        if (match) {
          read = screen.length
          return fresh
        }
        if (exitCode !== undefined) throw new Error(`exited (${exitCode}) before ${pattern} showed. Screen:\n${stripVTControlCharacters(screen)}`)
        await new Promise<void>((resolve) => waiters.push(resolve))
      }
    },
    /** Resolves with the command's exit code (script -e passes it on). */
    exited: exited.finally(() => child.stdin.end())
  }
}

import { fork, type ChildProcess } from 'node:child_process'
import { createRequire } from 'node:module'
import { join } from 'node:path'
import { pathToFileURL } from 'node:url'
import type { HostMessage } from '../../../../shared/review-protocol'

/** One live worker process, whatever started it (Node fork here; Electron's utilityProcess in the app). */
export interface WorkerHandle {
  pid: number | undefined
  send(message: HostMessage): void
  onMessage(cb: (message: unknown) => void): void
  onExit(cb: (code: number | null, signal: string | null) => void): void
  /** Ends the process at once (SIGKILL). */
  kill(): void
  /** The last few KB of the worker's stdout/stderr, for a crash message. Optional: not every runtime pipes them. */
  output?(): string
  /** Lets this process exit while the worker goes on (a detached review in the one-shot CLI). */
  release?(): void
}

export type WorkerSpawner = () => WorkerHandle

/** Environment variables a worker inherits: enough to run, never a key, token or proxy setting. */
export const HERMETIC_ENV_KEYS = ['PATH', 'HOME', 'USERPROFILE', 'LANG', 'LC_ALL', 'TZ', 'TMPDIR', 'TEMP', 'TMP', 'SYSTEMROOT'] as const

export function hermeticEnv(source: NodeJS.ProcessEnv = process.env): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {}
  for (const key of HERMETIC_ENV_KEYS) {
    // Windows spells some of them in another case (Path, SystemRoot).
    const found = Object.keys(source).find((name) => name.toUpperCase() === key)
    if (found && source[found] !== undefined) env[key] = String(source[found])
  }
  return env
}

/** The worker entry in the source tree (run through tsx). */
export const REVIEW_ENTRY_SOURCE = join(__dirname, '..', '..', '..', 'worker', 'review-entry.ts')

const OUTPUT_TAIL_BYTES = 8 * 1024

export interface ForkReviewWorkerOptions {
  /** The entry to run: the TypeScript source (default) or a built `.js`. */
  entry?: string
  /** Extra node flags (the tsx loader is added for a `.ts` entry). */
  execArgv?: string[]
}

/**
 * Starts a review worker with `child_process.fork` (CLI, tests, browser mode). The environment is
 * hermetic: the API key reaches the worker only in the start message. stdout and stderr are kept
 * (their tail) so a crash can say what happened. On POSIX the worker leads its own process group;
 * it still stops when the host goes away (the IPC channel closes), unless released.
 */
export function forkReviewWorker(options: ForkReviewWorkerOptions = {}): WorkerHandle {
  const entry = options.entry ?? REVIEW_ENTRY_SOURCE
  const execArgv = [...(options.execArgv ?? [])]
  if (/\.[mc]?ts$/.test(entry)) {
    execArgv.push('--import', pathToFileURL(createRequire(__filename).resolve('tsx')).href)
  }
  const child = fork(entry, [], {
    execArgv,
    env: hermeticEnv(),
    stdio: ['ignore', 'pipe', 'pipe', 'ipc'],
    // Its own process group on POSIX, so Ctrl+C in the terminal (SIGINT to the foreground group) does
    // not kill a review mid-write: the host alone stops it (shutdown, then kill after a grace).
    // Not on Windows, where `detached` would open a console window.
    detached: process.platform !== 'win32'
  })
  return wrapChild(child)
}

function wrapChild(child: ChildProcess): WorkerHandle {
  let output = ''
  const keep = (chunk: Buffer) => {
    output = (output + chunk.toString('utf8')).slice(-OUTPUT_TAIL_BYTES)
  }
  child.stdout?.on('data', keep)
  child.stderr?.on('data', keep)

  const exitListeners: Array<(code: number | null, signal: string | null) => void> = []
  let exited: { code: number | null; signal: string | null } | null = null
  const finish = (code: number | null, signal: string | null) => {
    if (exited) return
    exited = { code, signal }
    for (const listener of exitListeners) listener(code, signal)
  }
  // `close` comes after the pipes are drained, so the output tail is complete when listeners run.
  child.on('close', (code, signal) => finish(code, signal))
  child.on('error', (error) => {
    keep(Buffer.from(`\n${error.message}\n`))
    if (child.pid === undefined || child.exitCode !== null || child.signalCode !== null) finish(child.exitCode, child.signalCode)
  })

  return {
    pid: child.pid,
    send(message) {
      if (!child.connected) return
      child.send(message, (error) => {
        if (error) keep(Buffer.from(`\ncould not send ${message.type} to the worker: ${error.message}\n`))
      })
    },
    onMessage(cb) {
      child.on('message', (message) => cb(message))
    },
    onExit(cb) {
      if (exited) cb(exited.code, exited.signal)
      else exitListeners.push(cb)
    },
    kill() {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL')
    },
    output: () => output,
    release() {
      child.stdout?.destroy()
      child.stderr?.destroy()
      child.channel?.unref()
      child.unref()
    }
  }
}

import { spawn, type ChildProcess } from 'node:child_process'
import { withoutCairnSecrets } from '../security/secret-env'
import { HeadTailBuffer } from './text'

export interface ShellRunOptions {
  command: string
  cwd: string
  timeoutMs: number
  signal?: AbortSignal
  /** Total chars of stdout + stderr handed back (head and tail of each are kept). */
  maxOutputChars: number
  /** Time between SIGTERM and SIGKILL when the command is stopped. */
  killGraceMs?: number
}

export interface ShellRunResult {
  exitCode: number | null
  signal: string | null
  timedOut: boolean
  cancelled: boolean
  stdout: string
  stderr: string
  durationMs: number
  /** The shell exited, but processes it started in the background still hold its output open. */
  backgroundLeft: boolean
}

const DEFAULT_KILL_GRACE_MS = 2_000
/** After the shell exits, how long output may keep draining before background holders are left behind. */
const POST_EXIT_DRAIN_MS = 1_000
const isWindows = process.platform === 'win32'

/**
 * What commands the model runs get: this process's environment without Cairn's secrets (keys, tokens,
 * `CAIRN_SECRET_*`: security/secret-env.ts), and pagers that do not wait for a terminal.
 */
export function commandEnv(source: NodeJS.ProcessEnv = process.env): NodeJS.ProcessEnv {
  return { ...withoutCairnSecrets(source), PAGER: 'cat', GIT_PAGER: 'cat' }
}

function spawnShell(command: string, cwd: string): ChildProcess {
  const env = commandEnv()
  if (isWindows) {
    return spawn(process.env.ComSpec || 'cmd.exe', ['/d', '/s', '/c', `"${command}"`], {
      cwd,
      env,
      stdio: ['ignore', 'pipe', 'pipe'],
      windowsHide: true,
      windowsVerbatimArguments: true
    })
  }
  // `detached` makes the shell lead a new process group, so everything it starts can be stopped together.
  return spawn('/bin/sh', ['-c', command], { cwd, env, stdio: ['ignore', 'pipe', 'pipe'], detached: true })
}

function signalGroup(pid: number, signal: NodeJS.Signals): void {
  try {
    process.kill(-pid, signal)
  } catch {
    // ESRCH: the whole group is already gone.
  }
}

/** Stops the command and everything it started: SIGTERM to the group, SIGKILL after the grace period. */
function killTree(pid: number, graceMs: number): void {
  if (isWindows) {
    spawn('taskkill', ['/pid', String(pid), '/T', '/F'], { stdio: 'ignore', windowsHide: true }).on('error', () => {})
    return
  }
  signalGroup(pid, 'SIGTERM')
  // Unref'd and never cleared: stragglers that ignore SIGTERM are killed even after the result is returned.
  setTimeout(() => signalGroup(pid, 'SIGKILL'), graceMs).unref()
}

/** Shares `total` chars between the two streams: stderr gets what it needs up to a quarter, stdout the rest. */
function fitOutputs(stdout: HeadTailBuffer, stderr: HeadTailBuffer, total: number): { stdout: string; stderr: string } {
  if (stdout.length + stderr.length <= total) return { stdout: stdout.text(Infinity), stderr: stderr.text(Infinity) }
  const stderrBudget = Math.min(stderr.length, Math.max(total - stdout.length, Math.floor(total / 4)))
  return { stdout: stdout.text(total - stderrBudget), stderr: stderr.text(stderrBudget) }
}

/**
 * Runs a command through the platform shell with no stdin, capturing bounded output. A timeout or an abort
 * kills the whole process group; a non-zero exit is a normal result, not an error. Rejects only when the
 * shell cannot be started at all.
 */
export function runShellCommand(options: ShellRunOptions): Promise<ShellRunResult> {
  const started = Date.now()
  const graceMs = options.killGraceMs ?? DEFAULT_KILL_GRACE_MS
  const stdoutBuffer = new HeadTailBuffer(Math.ceil(options.maxOutputChars / 2))
  const stderrBuffer = new HeadTailBuffer(Math.ceil(options.maxOutputChars / 2))

  return new Promise((resolve, reject) => {
    const child = spawnShell(options.command, options.cwd)
    let exitCode: number | null = null
    let exitSignal: string | null = null
    let timedOut = false
    let cancelled = false
    let killing = false
    let settled = false
    let drainTimer: NodeJS.Timeout | undefined

    const stop = () => {
      if (killing || child.pid === undefined) return
      killing = true
      killTree(child.pid, graceMs)
      // If something survives even SIGKILL's delivery window, stop waiting for its output.
      clearTimeout(drainTimer)
      drainTimer = setTimeout(() => finish(true), graceMs + POST_EXIT_DRAIN_MS)
    }
    const onAbort = () => {
      cancelled = true
      stop()
    }
    const timeout = setTimeout(() => {
      timedOut = true
      stop()
    }, options.timeoutMs)
    options.signal?.addEventListener('abort', onAbort, { once: true })

    const finish = (outputStillOpen: boolean) => {
      if (settled) return
      settled = true
      clearTimeout(timeout)
      clearTimeout(drainTimer)
      options.signal?.removeEventListener('abort', onAbort)
      if (outputStillOpen) {
        child.stdout?.destroy()
        child.stderr?.destroy()
      }
      const output = fitOutputs(stdoutBuffer, stderrBuffer, options.maxOutputChars)
      resolve({
        exitCode,
        signal: exitSignal,
        timedOut,
        cancelled,
        stdout: output.stdout,
        stderr: output.stderr,
        durationMs: Date.now() - started,
        backgroundLeft: outputStillOpen && !killing
      })
    }

    child.stdout?.setEncoding('utf8').on('data', (chunk: string) => stdoutBuffer.push(chunk))
    child.stderr?.setEncoding('utf8').on('data', (chunk: string) => stderrBuffer.push(chunk))
    child.on('error', (error) => {
      if (settled) return
      settled = true
      clearTimeout(timeout)
      options.signal?.removeEventListener('abort', onAbort)
      reject(error)
    })
    child.on('exit', (code, signal) => {
      exitCode = code
      exitSignal = signal
      if (!killing) drainTimer = setTimeout(() => finish(true), POST_EXIT_DRAIN_MS)
    })
    // 'close' comes after 'exit' once every holder of the output pipes is gone.
    child.on('close', () => finish(false))
    if (options.signal?.aborted) onAbort()
  })
}

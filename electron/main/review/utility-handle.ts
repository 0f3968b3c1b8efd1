import type { WorkerHandle } from '../../core/learning/host/spawn-worker'

/** The part of Electron's UtilityProcess the review host needs (declared here so it can be tested without Electron). */
export interface UtilityProcessLike {
  readonly pid: number | undefined
  readonly stdout: NodeJS.ReadableStream | null
  readonly stderr: NodeJS.ReadableStream | null
  postMessage(message: unknown): void
  kill(): boolean
  on(event: 'message', listener: (message: unknown) => void): unknown
  on(event: 'exit', listener: (code: number) => void): unknown
  on(event: 'error', listener: (type: string, location: string, report: string) => void): unknown
}

const OUTPUT_TAIL_BYTES = 8 * 1024

/**
 * Adapts a utility process to the review host's WorkerHandle, like forkReviewWorker does for a Node
 * child: `postMessage` for send, `message` events carry the payload itself, `exit` has no signal.
 * stdout/stderr tails are kept so a crash can say what happened.
 */
export function utilityWorkerHandle(child: UtilityProcessLike): WorkerHandle {
  let output = ''
  const keep = (chunk: Buffer | string) => {
    output = (output + chunk.toString()).slice(-OUTPUT_TAIL_BYTES)
  }
  child.stdout?.on('data', keep)
  child.stderr?.on('data', keep)

  let exited: { code: number | null } | null = null
  const exitListeners: Array<(code: number | null, signal: string | null) => void> = []
  child.on('exit', (code) => {
    if (exited) return
    exited = { code }
    for (const listener of exitListeners) listener(code, null)
  })
  // A fatal V8 error in the child: the exit that follows ends the run; this keeps the reason.
  child.on('error', (type, location) => keep(`\nutility process error: ${type} at ${location}\n`))

  return {
    // Known only after the `spawn` event, so read it when asked.
    get pid() {
      return child.pid
    },
    send(message) {
      if (exited) return
      try {
        child.postMessage(message)
      } catch (error) {
        keep(`\ncould not send ${message.type} to the worker: ${(error as Error).message}\n`)
      }
    },
    onMessage(cb) {
      child.on('message', (message) => cb(message))
    },
    onExit(cb) {
      if (exited) cb(exited.code, null)
      else exitListeners.push(cb)
    },
    kill() {
      if (!exited) child.kill()
    },
    output: () => output
  }
}

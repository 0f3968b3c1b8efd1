/**
 * The child side of the host ↔ worker channel, the same code in both runtimes: an Electron
 * utilityProcess (`process.parentPort`: the payload is `event.data`, replies go by `postMessage`)
 * or a Node child made with `child_process.fork` (`process.on('message')` / `process.send`).
 */

/** Exit codes of the review worker besides 0 (the review finished and `done` was sent). */
export const WORKER_EXIT = {
  failed: 1,
  /** A frame of another protocol or version: host and worker come from different builds. */
  protocolMismatch: 70,
  /** A frame of the right protocol that does not validate. */
  invalidFrame: 65,
  /** An uncaught exception in the worker. */
  uncaught: 73,
  /** The worker stopped itself at `limits.timeoutMs`. */
  timeout: 124
} as const

/** The part of Electron's `ParentPort` used here (declared locally: this module must not import electron). */
export interface ParentPortLike {
  on(event: 'message', listener: (event: { data: unknown }) => void): unknown
  postMessage(message: unknown): void
}

export interface WorkerChannel {
  /** Resolves once the message has been handed to the parent (so exiting right after loses nothing). */
  send(message: unknown): Promise<void>
  onMessage(callback: (message: unknown) => void): void
  /** The parent went away (Node only: a utility process is ended by Electron with its parent). */
  onDisconnect(callback: () => void): void
}

type ChildProcessLike = Pick<NodeJS.Process, 'on' | 'send'>

export function createWorkerChannel(proc: NodeJS.Process = process): WorkerChannel {
  const parentPort = Reflect.get(proc, 'parentPort') as ParentPortLike | undefined
  if (parentPort) {
    return {
      send: async (message) => parentPort.postMessage(message),
      onMessage: (callback) => void parentPort.on('message', (event) => callback(event.data)),
      onDisconnect: () => {}
    }
  }
  const child = proc as ChildProcessLike
  const send = child.send?.bind(proc)
  if (typeof send === 'function') {
    return {
      send: (message) =>
        new Promise<void>((resolve) => {
          try {
            // The callback also runs with an error when the parent is gone: nothing more to do then.
            send(message as never, undefined, undefined, () => resolve())
          } catch {
            resolve()
          }
        }),
      onMessage: (callback) => void child.on('message', (message: unknown) => callback(message)),
      onDisconnect: (callback) => void child.on('disconnect', callback)
    }
  }
  throw new Error('The review worker must be started by Cairn (as a utility process or a forked child), not run directly.')
}

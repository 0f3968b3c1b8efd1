import type { IpcResult } from '../../../shared/ipc/define'
import type { ConnectionStatus, Transport } from './transport'

/** The parts of a browser WebSocket the transport uses (tests pass a fake). */
export interface SocketLike {
  readonly readyState: number
  send(data: string): void
  close(): void
  onopen: ((event: unknown) => void) | null
  onclose: ((event: unknown) => void) | null
  onmessage: ((event: { data: unknown }) => void) | null
  onerror: ((event: unknown) => void) | null
}

export interface WsTransportOptions {
  url: string
  createSocket?: (url: string) => SocketLike
  /** How long a request made while disconnected waits for the connection before failing. */
  waitTimeoutMs?: number
  /** Delay before reconnect attempt `attempt` (0-based). */
  backoffMs?: (attempt: number) => number
}

const OPEN = 1

interface Waiting {
  id: number
  frame: string
  resolve: (result: IpcResult<unknown>) => void
  timer: ReturnType<typeof setTimeout>
}

export function defaultBackoff(attempt: number): number {
  return Math.min(10_000, 500 * 2 ** attempt) + Math.floor(Math.random() * 250)
}

/**
 * Browser mode: one WebSocket carrying `{type:'request'}` frames out and `response`/`event` frames
 * back. It reconnects with backoff after a drop; requests made while disconnected wait for the
 * connection (up to `waitTimeoutMs`) instead of failing at once.
 */
export function wsTransport(options: WsTransportOptions): Transport {
  const createSocket = options.createSocket ?? ((url: string) => new WebSocket(url) as unknown as SocketLike)
  const waitTimeoutMs = options.waitTimeoutMs ?? 15_000
  const backoffMs = options.backoffMs ?? defaultBackoff
  const listeners = new Map<string, Set<(payload: unknown) => void>>()
  const statusListeners = new Set<(status: ConnectionStatus) => void>()
  const inFlight = new Map<number, (result: IpcResult<unknown>) => void>()
  let waiting: Waiting[] = []
  let nextId = 1
  let attempt = 0
  let status: ConnectionStatus = 'connecting'
  let socket: SocketLike | null = null
  let reconnectTimer: ReturnType<typeof setTimeout> | null = null
  let closed = false

  const setStatus = (next: ConnectionStatus): void => {
    if (next === status) return
    status = next
    for (const listener of statusListeners) listener(next)
  }

  const connect = (): void => {
    const ws = createSocket(options.url)
    socket = ws
    ws.onopen = () => {
      attempt = 0
      setStatus('open')
      const queued = waiting
      waiting = []
      for (const item of queued) {
        clearTimeout(item.timer)
        inFlight.set(item.id, item.resolve)
        ws.send(item.frame)
      }
    }
    ws.onmessage = (event) => handleFrame(event.data)
    ws.onerror = () => {}
    ws.onclose = () => {
      if (socket !== ws) return
      socket = null
      // Answers to requests already sent are lost with the socket; say so rather than hang.
      for (const [, resolve] of inFlight) {
        resolve(failure('DISCONNECTED', 'The connection to Cairn dropped before it answered. Try again once it is back.'))
      }
      inFlight.clear()
      if (closed) return
      setStatus('reconnecting')
      reconnectTimer = setTimeout(connect, backoffMs(attempt++))
    }
  }

  const handleFrame = (data: unknown): void => {
    let frame: { type?: unknown; id?: unknown; result?: unknown; name?: unknown; payload?: unknown }
    try {
      frame = JSON.parse(String(data))
    } catch {
      return
    }
    if (frame.type === 'response' && typeof frame.id === 'number') {
      const resolve = inFlight.get(frame.id)
      if (!resolve) return
      inFlight.delete(frame.id)
      resolve(isResult(frame.result) ? frame.result : failure('INTERNAL', 'Cairn sent an answer this window cannot read.'))
    } else if (frame.type === 'event' && typeof frame.name === 'string') {
      for (const listener of listeners.get(frame.name) ?? []) listener(frame.payload)
    }
  }

  connect()

  return {
    mode: 'browser',
    request(route, input) {
      const id = nextId++
      const frame = JSON.stringify({ type: 'request', id, route, input })
      return new Promise((resolve) => {
        if (socket && socket.readyState === OPEN && status === 'open') {
          inFlight.set(id, resolve)
          socket.send(frame)
          return
        }
        const timer = setTimeout(() => {
          waiting = waiting.filter((item) => item.id !== id)
          resolve(failure('TIMEOUT', 'Cairn is not reachable. Check that "cairn serve" is still running, then try again.'))
        }, waitTimeoutMs)
        waiting.push({ id, frame, resolve, timer })
      })
    },
    on(event, callback) {
      let set = listeners.get(event)
      if (!set) listeners.set(event, (set = new Set()))
      set.add(callback)
      return () => set.delete(callback)
    },
    onStatus(callback) {
      statusListeners.add(callback)
      return () => statusListeners.delete(callback)
    },
    status: () => status,
    close() {
      closed = true
      if (reconnectTimer) clearTimeout(reconnectTimer)
      for (const item of waiting) clearTimeout(item.timer)
      waiting = []
      socket?.close()
    }
  }
}

function failure(code: string, message: string): IpcResult<unknown> {
  return { ok: false, error: { code, message } }
}

function isResult(value: unknown): value is IpcResult<unknown> {
  if (!value || typeof value !== 'object') return false
  const result = value as { ok?: unknown; error?: { code?: unknown; message?: unknown } }
  if (result.ok === true) return true
  return result.ok === false && typeof result.error?.code === 'string' && typeof result.error.message === 'string'
}

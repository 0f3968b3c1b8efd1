/**
 * The sandboxed preload: a single CJS bundle that may only require('electron'). It exposes exactly
 * `window.cairn = { request, on }` and nothing else: no ipcRenderer, no channel names, no Node.
 * Main checks every request's sender and validates its input; this side only keeps the shape honest.
 */
import { contextBridge, ipcRenderer } from 'electron'
import { EVENT_CHANNEL, REQUEST_CHANNEL } from '../../shared/ipc/channels'

type Listener = (payload: unknown) => void

const listeners = new Map<string, Set<Listener>>()

// One IPC listener for all events, demultiplexed by name (no per-subscription ipcRenderer listeners).
ipcRenderer.on(EVENT_CHANNEL, (_event, name: unknown, payload: unknown) => {
  if (typeof name !== 'string') return
  for (const listener of listeners.get(name) ?? []) {
    try {
      listener(payload)
    } catch (error) {
      console.error(`cairn: a listener for ${name} failed`, error)
    }
  }
})

function failure(code: string, message: string) {
  return { ok: false as const, error: { code, message } }
}

contextBridge.exposeInMainWorld('cairn', {
  request(route: unknown, input?: unknown): Promise<unknown> {
    if (typeof route !== 'string') return Promise.resolve(failure('VALIDATION_FAILED', 'cairn.request(route, input): route must be a string.'))
    return ipcRenderer.invoke(REQUEST_CHANNEL, route, input).catch((error: unknown) => failure('INTERNAL', (error as Error)?.message ?? String(error)))
  },
  on(name: unknown, callback: unknown): () => void {
    if (typeof name !== 'string' || typeof callback !== 'function') {
      throw new TypeError('cairn.on(name, callback): name must be a string and callback a function.')
    }
    const set = listeners.get(name) ?? new Set<Listener>()
    listeners.set(name, set)
    const listener: Listener = (payload) => (callback as Listener)(payload)
    set.add(listener)
    return () => {
      set.delete(listener)
    }
  }
})

import type { IpcResult } from '../../../shared/ipc/define'

/** How the renderer reaches main: the Electron preload or the browser-mode WebSocket. Same shape for both. */
export interface Transport {
  readonly mode: 'desktop' | 'browser'
  request(route: string, input: unknown): Promise<IpcResult<unknown>>
  on(event: string, callback: (payload: unknown) => void): () => void
  /** Connection changes (browser mode only: the desktop preload is always connected). */
  onStatus(callback: (status: ConnectionStatus) => void): () => void
  status(): ConnectionStatus
  close(): void
}

export type ConnectionStatus = 'connecting' | 'open' | 'reconnecting'

/** Exactly what the Electron preload exposes as `window.cairn`. */
export interface PreloadBridge {
  request(route: string, input: unknown): Promise<IpcResult<unknown>>
  on(event: string, callback: (payload: unknown) => void): () => void
}

declare global {
  interface Window {
    cairn?: PreloadBridge
  }
}

export function isPreloadBridge(value: unknown): value is PreloadBridge {
  const candidate = value as Partial<PreloadBridge> | null | undefined
  return typeof candidate?.request === 'function' && typeof candidate.on === 'function'
}

/** Wraps the preload bridge: it is in-process, so it is always connected. */
export function preloadTransport(bridge: PreloadBridge): Transport {
  return {
    mode: 'desktop',
    request: (route, input) => bridge.request(route, input),
    on: (event, callback) => bridge.on(event, callback),
    onStatus: () => () => {},
    status: () => 'open',
    close: () => {}
  }
}

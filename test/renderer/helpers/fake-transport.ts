import type { IpcEventName, IpcEvents, IpcRoute, RouteInput, RouteOutput } from '../../../shared/ipc/contract'
import type { IpcResult } from '../../../shared/ipc/define'
import type { PreloadBridge } from '../../../renderer/src/ipc/transport'

export interface RecordedCall {
  route: string
  input: unknown
}

type Handler<R extends IpcRoute> = (input: RouteInput<R>) => RouteOutput<R> | Promise<RouteOutput<R>>

export type RouteHandlers = { [R in IpcRoute]?: Handler<R> | RouteOutput<R> }

/** Thrown by a fixture to answer with an error envelope. */
export class FakeFailure extends Error {
  constructor(
    readonly code: string,
    message: string,
    readonly params?: Record<string, string | number>
  ) {
    super(message)
  }
}

/**
 * An in-memory stand-in for the Electron preload (`window.cairn`): answers routes from fixtures,
 * records every request, and pushes events on demand.
 */
export class FakeBridge implements PreloadBridge {
  readonly calls: RecordedCall[] = []
  private readonly listeners = new Map<string, Set<(payload: unknown) => void>>()

  constructor(private readonly handlers: RouteHandlers = {}) {}

  set<R extends IpcRoute>(route: R, handler: Handler<R> | RouteOutput<R>): void {
    ;(this.handlers as Record<string, unknown>)[route] = handler
  }

  async request(route: string, input: unknown): Promise<IpcResult<unknown>> {
    this.calls.push({ route, input })
    const handler = (this.handlers as Record<string, unknown>)[route]
    if (handler === undefined) return { ok: false, error: { code: 'ROUTE_NOT_FOUND', message: `No fixture for ${route}` } }
    try {
      const data = typeof handler === 'function' ? await (handler as (input: unknown) => unknown)(input) : structuredClone(handler)
      return { ok: true, data }
    } catch (error) {
      if (error instanceof FakeFailure) return { ok: false, error: { code: error.code, message: error.message, ...(error.params ? { params: error.params } : {}) } }
      return { ok: false, error: { code: 'INTERNAL', message: (error as Error).message } }
    }
  }

  on(event: string, callback: (payload: unknown) => void): () => void {
    let set = this.listeners.get(event)
    if (!set) this.listeners.set(event, (set = new Set()))
    set.add(callback)
    return () => set.delete(callback)
  }

  emit<E extends IpcEventName>(name: E, payload: IpcEvents[E]): void {
    for (const listener of this.listeners.get(name) ?? []) listener(payload)
  }

  callsTo(route: IpcRoute): unknown[] {
    return this.calls.filter((call) => call.route === route).map((call) => call.input)
  }
}

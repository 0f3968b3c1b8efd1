import type { IpcEventName, IpcEvents, IpcRoute, RouteInput, RouteOutput } from '../../../shared/ipc/contract'
import { IpcError, type IpcResult } from '../../../shared/ipc/define'
import type { PreloadBridge } from '../../../renderer/src/ipc/transport'
import type { SessionSummary } from '../../../shared/ipc/domain'
import { listOrder } from '../../../renderer/src/stores/session-pages'

export interface RecordedCall {
  route: string
  input: unknown
}

/**
 * A fixture may leave out `sessions.get`'s page facts: a conversation that fits on one page. And
 * `sessions.list` may answer with just the conversations: the fake pages them the way main does.
 */
type Fixture<R extends IpcRoute> = R extends 'sessions.get'
  ? Omit<RouteOutput<R>, 'page'> & Partial<Pick<RouteOutput<R>, 'page'>>
  : R extends 'sessions.list'
    ? RouteOutput<R> | SessionSummary[]
    : RouteOutput<R>

type Handler<R extends IpcRoute> = (input: RouteInput<R>) => Fixture<R> | Promise<Fixture<R>>

export type RouteHandlers = { [R in IpcRoute]?: Handler<R> | Fixture<R> }

/** One page of `all` as main answers `sessions.list`: archived ones apart, pinned first, a cursor after the last row. */
export function conversationsPage(all: SessionSummary[], input: Partial<RouteInput<'sessions.list'>> = {}): RouteOutput<'sessions.list'> {
  const after = input.cursor ? (JSON.parse(input.cursor) as SessionSummary) : null
  const rows = all
    .filter((s) => s.archived === Boolean(input.archived))
    .sort(listOrder)
    .filter((s) => !after || listOrder(s, after) > 0)
  const limit = input.limit ?? 100
  const sessions = rows.slice(0, limit)
  const last = sessions.at(-1)
  return { sessions, nextCursor: rows.length > limit && last ? JSON.stringify({ id: last.id, pinned: last.pinned, updatedAt: last.updatedAt }) : null }
}

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

  set<R extends IpcRoute>(route: R, handler: Handler<R> | Fixture<R>): void {
    ;(this.handlers as Record<string, unknown>)[route] = handler
  }

  async request(route: string, input: unknown): Promise<IpcResult<unknown>> {
    this.calls.push({ route, input })
    const handler = (this.handlers as Record<string, unknown>)[route]
    if (handler === undefined) return { ok: false, error: { code: 'ROUTE_NOT_FOUND', message: `No fixture for ${route}` } }
    try {
      const data = typeof handler === 'function' ? await (handler as (input: unknown) => unknown)(input) : structuredClone(handler)
      if (route === 'sessions.list' && Array.isArray(data)) return { ok: true, data: conversationsPage(data as SessionSummary[], input as RouteInput<'sessions.list'>) }
      return { ok: true, data: route === 'sessions.get' ? { page: { hasOlder: false }, ...(data as object) } : data }
    } catch (error) {
      if (error instanceof IpcError) return { ok: false, error: error.toJSON() }
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

import type { z } from 'zod'

/** One request route: what the renderer may send and what main answers. Both sides are zod schemas. */
export interface RouteDef<I extends z.ZodType = z.ZodType, O extends z.ZodType = z.ZodType> {
  input: I
  output: O
}

/** Identity function that pins a route's schemas in one place. */
export function defineRoute<I extends z.ZodType, O extends z.ZodType>(def: { input: I; output: O }): RouteDef<I, O> {
  return def
}

/** Error codes every transport uses; domains may add their own strings. */
export type IpcErrorCode =
  | 'ROUTE_NOT_FOUND'
  | 'VALIDATION_FAILED'
  | 'FORBIDDEN_SENDER'
  | 'NOT_FOUND'
  | 'CONFLICT'
  | 'BUSY'
  | 'PROVIDER'
  | 'INTERNAL'
  | (string & {})

export interface IpcErrorShape {
  code: IpcErrorCode
  message: string
}

/** Every answer, over Electron IPC or the browser-mode WebSocket. Handlers never throw through the transport. */
export type IpcResult<T> = { ok: true; data: T } | { ok: false; error: IpcErrorShape }

/** A failure a handler reports on purpose, with a code the renderer can act on. */
export class IpcError extends Error {
  constructor(readonly code: IpcErrorCode, message: string) {
    super(message)
    this.name = 'IpcError'
  }

  toJSON(): IpcErrorShape {
    return { code: this.code, message: this.message }
  }
}

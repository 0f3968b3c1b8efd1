import type { z } from 'zod'

/**
 * Which window sent a request, as main established it (never as the request says): the desktop's
 * main window, its quick-prompt window, or a browser-mode page (the quick page says `quick`).
 */
export type IpcSender = 'main' | 'quick' | 'browser'

/** One request route: what the renderer may send and what main answers. Both sides are zod schemas. */
export interface RouteDef<I extends z.ZodType = z.ZodType, O extends z.ZodType = z.ZodType> {
  input: I
  output: O
  /** The quick-prompt window may call it too (it asks, answers, and hands over to the main window; nothing more). */
  quickWindow: boolean
}

/** Pins a route's schemas, and who may call it, in one place. Only the main window and browser pages unless `quickWindow`. */
export function defineRoute<I extends z.ZodType, O extends z.ZodType>(def: { input: I; output: O; quickWindow?: boolean }): RouteDef<I, O> {
  return { ...def, quickWindow: def.quickWindow ?? false }
}

/** Whether `sender` may call the route at all (checked before its input is even parsed). */
export function mayCall(def: RouteDef, sender: IpcSender): boolean {
  return sender !== 'quick' || def.quickWindow
}

/** Error codes every transport uses; domains may add their own strings. */
export type IpcErrorCode =
  | 'ROUTE_NOT_FOUND'
  | 'VALIDATION_FAILED'
  | 'FORBIDDEN_SENDER'
  | 'FORBIDDEN_ROUTE'
  | 'NOT_FOUND'
  | 'CONFLICT'
  | 'BUSY'
  | 'PROVIDER'
  | 'INTERNAL'
  | (string & {})

/** Figures that go with an error code, so a face can word the error in its own language. */
export type IpcErrorParams = Record<string, string | number>

export interface IpcErrorShape {
  code: IpcErrorCode
  /** English, for logs and the CLI; the renderer words known codes itself (from `params`). */
  message: string
  params?: IpcErrorParams
}

/** Every answer, over Electron IPC or the browser-mode WebSocket. Handlers never throw through the transport. */
export type IpcResult<T> = { ok: true; data: T } | { ok: false; error: IpcErrorShape }

/** A failure a handler reports on purpose, with a code the renderer can act on (and word, from `params`). */
export class IpcError extends Error {
  constructor(
    readonly code: IpcErrorCode,
    message: string,
    readonly params?: IpcErrorParams
  ) {
    super(message)
    this.name = 'IpcError'
  }

  toJSON(): IpcErrorShape {
    return this.params ? { code: this.code, message: this.message, params: this.params } : { code: this.code, message: this.message }
  }
}

import type { z } from 'zod'
import { isErrorKey, type ErrorKey, type ErrorParamsByKey } from '../error-keys'
import { coreEnglish } from '../i18n/core-english'
import { errorWordsOf } from '../keyed-error'

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
  /** English, for logs and for a peer that does not know `key`; faces word the error from `key` and `params`. */
  message: string
  params?: IpcErrorParams
  /** Which words say what went wrong (shared/error-keys.ts); absent when the message came from elsewhere as it is. */
  key?: ErrorKey
}

/**
 * An error as it arrives over a transport, checked before a face reads it (by hand: the renderer's
 * bundle carries no zod): a key this version does not know is dropped (the message still says what
 * happened), params keep only strings and numbers. Null when it is not an error at all.
 */
export function readIpcError(value: unknown): IpcErrorShape | null {
  if (!value || typeof value !== 'object') return null
  const { code, message, params, key } = value as Record<string, unknown>
  if (typeof code !== 'string' || typeof message !== 'string') return null
  const figures = params && typeof params === 'object' ? Object.entries(params).filter((entry): entry is [string, string | number] => typeof entry[1] === 'string' || typeof entry[1] === 'number') : []
  return { code, message, ...(figures.length ? { params: Object.fromEntries(figures) } : {}), ...(isErrorKey(key) ? { key } : {}) }
}

/** Every answer, over Electron IPC or the browser-mode WebSocket. Handlers never throw through the transport. */
export type IpcResult<T> = { ok: true; data: T } | { ok: false; error: IpcErrorShape }

/** A failure a handler reports on purpose, with a code the renderer can act on (and word, from `key` and `params`). */
export class IpcError extends Error {
  constructor(
    readonly code: IpcErrorCode,
    message: string,
    readonly params?: IpcErrorParams,
    readonly key?: ErrorKey
  ) {
    super(message)
    this.name = 'IpcError'
  }

  /** A failure worded by its key: the English goes along for logs, every face words it in its own language. */
  static of<K extends ErrorKey>(code: IpcErrorCode, key: K, params: ErrorParamsByKey[K]): IpcError {
    const figures = params as IpcErrorParams
    return new IpcError(code, coreEnglish(`error.${key}`, figures), Object.keys(figures).length ? figures : undefined, key)
  }

  /** A domain error a route answers with `code`: its key and figures go along (a KeyedError's), so the faces word it; else its message as it is. */
  static carrying(code: IpcErrorCode, error: Error, extra?: IpcErrorParams): IpcError {
    const words = errorWordsOf(error)
    const figures = { ...words?.params, ...extra }
    return new IpcError(code, error.message, Object.keys(figures).length ? figures : undefined, words?.key)
  }

  toJSON(): IpcErrorShape {
    return { code: this.code, message: this.message, ...(this.params ? { params: this.params } : {}), ...(this.key ? { key: this.key } : {}) }
  }
}

/** An error envelope worded by its key, for answers built without throwing (the router, the transports). */
export function ipcErrorShape<K extends ErrorKey>(code: IpcErrorCode, key: K, params: ErrorParamsByKey[K]): IpcErrorShape {
  return IpcError.of(code, key, params).toJSON()
}

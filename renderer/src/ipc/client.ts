import type { IpcEventName, IpcEvents, IpcRoute, RouteInput, RouteOutput } from '../../../shared/ipc/contract'
import type { ErrorKey } from '../../../shared/error-keys'
import { readIpcError, type IpcErrorCode, type IpcErrorParams } from '../../../shared/ipc/define'
import type { ConnectionStatus, Transport } from './transport'

/** A failed request, with the code main (or the transport) gave, so callers can act on it. */
export class IpcRequestError extends Error {
  constructor(
    readonly code: IpcErrorCode,
    message: string,
    readonly route: string,
    /** Figures that go with the code (e.g. which provider setting is missing), for wording it in the UI language. */
    readonly params: IpcErrorParams | null = null,
    /** Which words say what went wrong (shared/error-keys.ts), when main sent one this version knows. */
    readonly key: ErrorKey | null = null
  ) {
    super(message)
    this.name = 'IpcRequestError'
  }
}

/** Routes whose input is `void` take no argument. */
export type InputArgs<R extends IpcRoute> = [RouteInput<R>] extends [void] ? [] : [input: RouteInput<R>]

export interface CairnClient {
  readonly mode: 'desktop' | 'browser'
  request<R extends IpcRoute>(route: R, ...args: InputArgs<R>): Promise<RouteOutput<R>>
  on<E extends IpcEventName>(name: E, callback: (payload: IpcEvents[E]) => void): () => void
  onStatus(callback: (status: ConnectionStatus) => void): () => void
  status(): ConnectionStatus
}

/** The typed face of a transport: unwraps the `IpcResult` envelope and throws {@link IpcRequestError}. */
export function createClient(transport: Transport): CairnClient {
  return {
    mode: transport.mode,
    async request(route, ...args) {
      let result
      try {
        result = await transport.request(route, args[0])
      } catch (error) {
        throw new IpcRequestError('INTERNAL', (error as Error)?.message ?? String(error), route)
      }
      if (!result || typeof result !== 'object' || typeof result.ok !== 'boolean') {
        throw new IpcRequestError('INTERNAL', `Cairn sent an unreadable answer to ${route}.`, route)
      }
      if (!result.ok) {
        const error = readIpcError(result.error) ?? { code: 'INTERNAL', message: `Cairn sent an unreadable answer to ${route}.` }
        throw new IpcRequestError(error.code, error.message, route, error.params ?? null, error.key ?? null)
      }
      return result.data as RouteOutput<typeof route>
    },
    on(name, callback) {
      return transport.on(name, (payload) => callback(payload as IpcEvents[typeof name]))
    },
    onStatus: (callback) => transport.onStatus(callback),
    status: () => transport.status()
  }
}

export function errorCode(error: unknown): string {
  return error instanceof IpcRequestError ? error.code : 'INTERNAL'
}

export function errorParams(error: unknown): IpcErrorParams | null {
  return error instanceof IpcRequestError ? error.params : null
}

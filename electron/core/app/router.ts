import type { z } from 'zod'
import { ipcRoutes, type IpcContext, type IpcHandlers } from '../../../shared/ipc/contract'
import { IpcError, ipcErrorShape, mayCall, type IpcResult } from '../../../shared/ipc/define'
import { errorWordsOf } from '../../../shared/keyed-error'
import { issueLines } from '../../../shared/zod-issues'

/**
 * The one entry for every request, whatever the transport (Electron IPC or the browser-mode
 * WebSocket): checks the route exists (own property only, so `__proto__` is not a route) and that the
 * sender may call it (the transport says who sent it), parses the input with the route's schema, runs
 * the handler, and always answers with an envelope.
 */
export interface DispatchOptions {
  /**
   * Check each answer against the route's output schema: catches contract drift in development and
   * tests (the default outside NODE_ENV=production); a packaged app turns it off (hot path).
   */
  checkOutputs?: boolean
}

export async function dispatch(handlers: IpcHandlers, route: unknown, input: unknown, ctx: IpcContext, options: DispatchOptions = {}): Promise<IpcResult<unknown>> {
  if (typeof route !== 'string' || !Object.hasOwn(ipcRoutes, route)) {
    return { ok: false, error: ipcErrorShape('ROUTE_NOT_FOUND', 'request.unknown_route', { route: String(route).slice(0, 100) }) }
  }
  const name = route as keyof typeof ipcRoutes
  const def = ipcRoutes[name]
  if (!mayCall(def, ctx.sender)) {
    return { ok: false, error: ipcErrorShape('FORBIDDEN_ROUTE', 'request.quick_window', { route: name }) }
  }
  const parsed = def.input.safeParse(input)
  if (!parsed.success) {
    return { ok: false, error: ipcErrorShape('VALIDATION_FAILED', 'request.invalid_input', { route: name, issues: describeIssues(parsed.error) }) }
  }
  try {
    const handler = handlers[name] as (input: unknown, ctx: IpcContext) => Promise<unknown>
    const data = await handler(parsed.data, ctx)
    if (options.checkOutputs ?? checkOutputsByDefault) {
      const checked = def.output.safeParse(data)
      if (!checked.success) throw new Error(`the answer to ${name} broke the contract: ${describeIssues(checked.error)}`)
    }
    return { ok: true, data }
  } catch (error) {
    if (error instanceof IpcError) return { ok: false, error: error.toJSON() }
    // A domain error with a key no handler mapped still reaches the faces worded.
    if (errorWordsOf(error)) return { ok: false, error: IpcError.carrying('INTERNAL', error as Error).toJSON() }
    return { ok: false, error: { code: 'INTERNAL', message: (error as Error)?.message ?? String(error) } }
  }
}

const checkOutputsByDefault = process.env.NODE_ENV !== 'production'

function describeIssues(error: z.ZodError): string {
  return issueLines(error, { root: 'input', max: 5 }).join('; ')
}

import { ipcMain, type IpcMainInvokeEvent } from 'electron'
import { ipcErrorShape, type IpcResult } from '../../../shared/ipc/define'
import type { CairnApp } from '../../core/app/cairn-app'
import { dispatch } from '../../core/app/router'
import { log } from '../log'
import type { AppOrigin } from '../windows/app-origin'
import { REQUEST_CHANNEL } from '../../../shared/ipc/channels'
import { checkSender, type SenderFacts, type WindowKind } from './validate-sender'

export interface IpcBridgeOptions {
  app: CairnApp
  origin: AppOrigin
  /** Which of our windows owns a webContents id (null: not ours). */
  windowKind(webContentsId: number): WindowKind | null
  /** Sends one event to every live window. */
  broadcast(name: string, payload: unknown): void
  /** Check answers against the contract (development); off in a packaged app (see productionMode). */
  checkOutputs: boolean
}

/**
 * The one IPC funnel: a single `cairn:request` handler that checks the sender, then hands the
 * request to the core router (which validates the route and input and always answers with an
 * envelope). Every app event goes to every window on `cairn:event`. Returns an uninstall function.
 */
export function installIpcBridge(options: IpcBridgeOptions): () => void {
  ipcMain.handle(REQUEST_CHANNEL, (event, route: unknown, input: unknown) => answerRequest(options, event, route, input))
  const stopEvents = options.app.events.on((event) => options.broadcast(event.name, event.payload))
  return () => {
    ipcMain.removeHandler(REQUEST_CHANNEL)
    stopEvents()
  }
}

/** Never throws: ipcMain would pass only the message of a thrown error to the renderer. */
export async function answerRequest(options: IpcBridgeOptions, event: IpcMainInvokeEvent, route: unknown, input: unknown): Promise<IpcResult<unknown>> {
  const name = typeof route === 'string' ? route.slice(0, 100) : typeof route
  try {
    const verdict = checkSender(senderFacts(event), options.windowKind, options.origin)
    if (!verdict.ok) {
      log.warn(`refused IPC request "${name}": ${verdict.reason}`)
      return { ok: false, error: ipcErrorShape('FORBIDDEN_SENDER', 'request.refused_sender', { route: name, why: verdict.reason }) }
    }
    return await dispatch(options.app.handlers, route, input, { sender: verdict.kind }, { checkOutputs: options.checkOutputs })
  } catch (error) {
    log.error(`IPC request "${name}" failed`, error)
    return { ok: false, error: { code: 'INTERNAL', message: (error as Error)?.message ?? String(error) } }
  }
}

function senderFacts(event: IpcMainInvokeEvent): SenderFacts {
  let frame: SenderFacts['frame'] = null
  try {
    const sender = event.senderFrame
    if (sender) frame = { url: sender.url, isMainFrame: sender.parent === null }
  } catch {
    // Reading a destroyed frame throws: treat it as gone.
  }
  return { frame, webContentsId: event.sender.id, webContentsType: event.sender.getType() }
}

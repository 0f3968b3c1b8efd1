import type { IpcHandlers } from '../../../../shared/ipc/contract'
import type { AppContext } from '../app-context'

/** Window and shell actions only the desktop shell can perform; browser mode ignores them. */
export function windowHandlers(app: AppContext): Pick<IpcHandlers, 'window.openMain' | 'window.hideQuick' | 'shell.openExternal'> {
  const platform = app.options.platform
  return {
    'window.openMain': async ({ sessionId }) => {
      platform.openMain?.(sessionId)
      return { ok: true as const }
    },
    'window.hideQuick': async () => {
      platform.hideQuick?.()
      return { ok: true as const }
    },
    'shell.openExternal': async ({ url }) => {
      await platform.openExternal?.(url)
      return { ok: true as const }
    }
  }
}

import type { IpcHandlers } from '../../../../shared/ipc/contract'
import { IpcError } from '../../../../shared/ipc/define'
import type { SettingsSlice } from './route-slices'

/** Window and shell actions only the desktop shell can perform; browser mode ignores them (and refuses the folder picker). */
export function windowHandlers(app: SettingsSlice): Pick<IpcHandlers, 'window.openMain' | 'window.hideQuick' | 'shell.openExternal' | 'window.pickFolder'> {
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
    },
    // The picked folder is only a suggestion: sessions.setWorkspace checks it like a typed one.
    'window.pickFolder': async ({ defaultPath }) => {
      if (!platform.pickFolder) throw IpcError.of('UNSUPPORTED', 'picker.no_folder', {})
      return { path: await platform.pickFolder({ defaultPath }) }
    }
  }
}

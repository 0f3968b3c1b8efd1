import type { IpcHandlers } from '../../../../shared/ipc/contract'
import type { MemoryProviderSlice } from './route-slices'

/** Settings → Memory: which memory provider is active, whether it works, and what was last sent to it. */
export function memoryProviderHandlers(app: MemoryProviderSlice): Pick<IpcHandlers, 'memoryProvider.status'> {
  return {
    'memoryProvider.status': async () => app.memoryProvider.status()
  }
}

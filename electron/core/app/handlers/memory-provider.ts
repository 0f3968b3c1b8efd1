import type { IpcHandlers } from '../../../../shared/ipc/contract'
import type { MemoryProviderSlice } from './route-slices'

/** Settings → Memory: which memory provider is active, whether it works, and what was last sent to it. */
export function memoryProviderHandlers(app: MemoryProviderSlice): Pick<IpcHandlers, 'memoryProvider.status' | 'memoryProvider.search' | 'memoryProvider.forget'> {
  return {
    'memoryProvider.status': async () => app.memoryProvider.status(),
    'memoryProvider.search': async ({ query, limit }) => (await app.memoryProvider.current()?.search(query, limit)) ?? [],
    'memoryProvider.forget': async ({ id }) => ({ forgotten: (await app.memoryProvider.current()?.forget(id)) ?? false })
  }
}

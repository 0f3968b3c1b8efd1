import type { IpcHandlers } from '../../../../shared/ipc/contract'
import type { MemoryStoreView, MemoryTargetName } from '../../../../shared/ipc/domain'
import type { AppContext } from '../app-context'

/** Hand edits from the Memory screen: recorded in the ledger with source `user`. */
export function memoryHandlers(app: AppContext): Pick<IpcHandlers, 'memory.get' | 'memory.add' | 'memory.replace' | 'memory.remove'> {
  const user = { write: { source: 'user' as const, sessionId: null } }
  const view = (target: MemoryTargetName): MemoryStoreView => {
    const config = app.core.config.get().memory
    const { entries, usage } = app.core.memory.read(target)
    return { entries, current: usage.current, limit: usage.limit, enabled: target === 'memory' ? config.enabled : config.userProfileEnabled }
  }
  const changed = <T extends { success: boolean }>(result: T): { success: boolean; message?: string; error?: string } => {
    if (result.success) app.emit('memory.changed', {})
    const r = result as { success: boolean; message?: unknown; error?: unknown }
    return {
      success: r.success,
      ...(typeof r.message === 'string' ? { message: r.message } : {}),
      ...(typeof r.error === 'string' ? { error: r.error } : {})
    }
  }
  return {
    'memory.get': async () => ({ memory: view('memory'), user: view('user') }),
    'memory.add': async ({ target, content }) => changed(await app.core.memory.add(target, content, user)),
    // The user is editing by hand: no guard against shrinking their own store.
    'memory.replace': async ({ target, oldText, content }) => changed(await app.core.memory.replace(target, oldText, content, user, { force: true })),
    'memory.remove': async ({ target, text }) => changed(await app.core.memory.remove(target, text, user, { force: true }))
  }
}

import type { IpcHandlers } from '../../../../shared/ipc/contract'
import { IpcError } from '../../../../shared/ipc/define'
import type { MemoryResultView, MemoryStoreView, MemoryTargetName } from '../../../../shared/ipc/domain'
import { memoryEntryInfo, memoryHistory, restoreMemoryEntry } from '../../memory/entry-history'
import { trimmedText } from '../../memory/entry-ops'
import { replaceEntryKeepingPin, setEntryPinned } from '../../memory/entry-pinning'
import type { LibrarySlice } from './route-slices'

type MemoryRoutes = 'memory.get' | 'memory.add' | 'memory.replace' | 'memory.remove' | 'memory.setPinned' | 'memory.history' | 'memory.restore'

/** Hand edits from the Memory screen: recorded in the ledger with source `user`. */
export function memoryHandlers(app: LibrarySlice): Pick<IpcHandlers, MemoryRoutes> {
  const user = { write: { source: 'user' as const, sessionId: null } }
  const view = (target: MemoryTargetName): MemoryStoreView => {
    const config = app.core.config.get().memory
    const { entries, usage } = app.core.memory.read(target)
    return {
      entries,
      info: memoryEntryInfo(app.core, target, entries),
      current: usage.current,
      limit: usage.limit,
      enabled: target === 'memory' ? config.enabled : config.userProfileEnabled
    }
  }
  const changed = <T extends { success: boolean }>(result: T): MemoryResultView => {
    const r = result as { success: boolean; message?: unknown; error?: unknown; duplicate?: unknown; similar_entry?: unknown; similarity?: unknown }
    if (result.success) app.emit('memory.changed', {}) // a duplicate changed a confirmation date
    return {
      success: r.success,
      ...(typeof r.message === 'string' ? { message: r.message } : {}),
      ...(typeof r.error === 'string' ? { error: r.error } : {}),
      // The screen words these itself: the entry is already there, or one says nearly the same or the opposite.
      ...(r.duplicate === true ? { duplicate: true } : {}),
      ...(typeof r.similar_entry === 'string' && (r.similarity === 'near_duplicate' || r.similarity === 'contradiction')
        ? { similar: { kind: r.similarity, entry: r.similar_entry } }
        : {})
    }
  }
  return {
    'memory.get': async () => ({ memory: view('memory'), user: view('user') }),
    'memory.add': async ({ target, content, allowSimilar }) => changed(await app.core.memory.add(target, content, user, { allowSimilar, overflow: false })),
    // The user is editing by hand: no guard against shrinking their own store. A pin follows the entry.
    'memory.replace': async ({ target, oldText, content }) =>
      changed(await replaceEntryKeepingPin(app.core, target, oldText, content, user.write, { force: true })),
    'memory.remove': async ({ target, text }) => changed(await app.core.memory.remove(target, text, user, { force: true })),
    'memory.setPinned': async ({ target, text, pinned }) => {
      const outcome = setEntryPinned(app.core, target, text, pinned)
      // The memory tool's English stays the model's; a person gets the refusal as a key.
      const words = { target, text: trimmedText(text) }
      if (!outcome.ok) throw outcome.code === 'not_found' ? IpcError.of('NOT_FOUND', 'memory.entry_missing', words) : IpcError.of('CONFLICT', 'memory.entry_ambiguous', words)
      app.emit('memory.changed', {})
      return { ok: true as const }
    },
    'memory.history': async ({ target, entry }) => memoryHistory(app.core.ledger, target, entry),
    'memory.restore': async ({ ledgerId }) => {
      const result = await restoreMemoryEntry(app.core, ledgerId)
      if (result.ok) app.emit('memory.changed', {})
      return result
    }
  }
}

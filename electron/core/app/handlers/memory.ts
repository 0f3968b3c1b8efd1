import type { IpcHandlers } from '../../../../shared/ipc/contract'
import { IpcError } from '../../../../shared/ipc/define'
import type { MemoryResultView, MemoryStoreView, MemoryTargetName } from '../../../../shared/ipc/domain'
import { memoryEntryInfo, memoryHistory, restoreMemoryEntry } from '../../memory/entry-history'
import { trimmedText } from '../../memory/entry-ops'
import { entryVisibilityHistory, setEntryHidden } from '../../memory/entry-hiding'
import { replaceEntryKeepingPin, setEntryPinned } from '../../memory/entry-pinning'
import type { LibrarySlice } from './route-slices'
import type { MemoryStore } from '../../memory'
import { NoProjectError } from '../../memory/project-scope'
import { isAbsolute, relative, sep } from 'node:path'

type MemoryRoutes =
  | 'memory.get'
  | 'memory.add'
  | 'memory.replace'
  | 'memory.remove'
  | 'memory.setPinned'
  | 'memory.history'
  | 'memory.restore'
  | 'memory.setHidden'
  | 'memory.visibilityHistory'

/** Hand edits from the Memory screen: recorded in the ledger with source `user`. */
export function memoryHandlers(app: LibrarySlice): Pick<IpcHandlers, MemoryRoutes> {
  const user = { write: { source: 'user' as const, sessionId: null } }
  const view = (target: MemoryTargetName): MemoryStoreView => memoryStoreView(app, app.core.memory, target)
  // The store of the workspace the screen shows: `project` is that workspace's PROJECT.md (refused, keyed, without one).
  const storeOf = (target: MemoryTargetName, workspace: string | undefined): MemoryStore => {
    if (target !== 'project') return app.core.memory
    if (!workspace || !isAbsolute(workspace)) throw IpcError.carrying('NOT_FOUND', new NoProjectError())
    return app.core.memory.forWorkspace(workspace)
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
    'memory.add': async ({ target, content, allowSimilar, workspace }) => changed(await storeOf(target, workspace).add(target, content, user, { allowSimilar, overflow: false })),
    // The user is editing by hand: no guard against shrinking their own store. A pin follows the entry.
    'memory.replace': async ({ target, oldText, content, workspace }) =>
      changed(await replaceEntryKeepingPin({ memory: storeOf(target, workspace), memoryPins: app.core.memoryPins, ledger: app.core.ledger }, target, oldText, content, user.write, { force: true })),
    'memory.remove': async ({ target, text, workspace }) => changed(await storeOf(target, workspace).remove(target, text, user, { force: true })),
    'memory.setPinned': async ({ target, text, pinned, workspace }) => {
      const outcome = setEntryPinned({ memory: storeOf(target, workspace), memoryPins: app.core.memoryPins }, target, text, pinned)
      // The memory tool's English stays the model's; a person gets the refusal as a key.
      const words = { target, text: trimmedText(text) }
      if (!outcome.ok) throw outcome.code === 'not_found' ? IpcError.of('NOT_FOUND', 'memory.entry_missing', words) : IpcError.of('CONFLICT', 'memory.entry_ambiguous', words)
      app.emit('memory.changed', {})
      return { ok: true as const }
    },
    'memory.setHidden': async ({ target, text, hidden, workspace }) => {
      const outcome = setEntryHidden({ memory: storeOf(target, workspace), memoryHidden: app.core.memoryHidden }, target, text, hidden)
      const words = { target, text: trimmedText(text) }
      if (!outcome.ok) throw outcome.code === 'not_found' ? IpcError.of('NOT_FOUND', 'memory.entry_missing', words) : IpcError.of('CONFLICT', 'memory.entry_ambiguous', words)
      if (outcome.changed) app.emit('memory.changed', {})
      return { ok: true as const }
    },
    'memory.visibilityHistory': async ({ target, entry }) => entryVisibilityHistory(app.core, target, entry),
    'memory.history': async ({ target, entry, workspace }) =>
      memoryHistory(app.core.ledger, target, entry, target === 'project' ? ledgerTargetOf(app.core.paths.root, storeOf(target, workspace).pathOf('project')) : undefined),
    'memory.restore': async ({ ledgerId }) => {
      const result = await restoreMemoryEntry(app.core, ledgerId)
      if (result.ok) app.emit('memory.changed', {})
      return result
    }
  }
}

/** One store's entries, where each came from, and how full it is, for the Memory screen. */
export function memoryStoreView(app: Pick<LibrarySlice, 'core'>, store: Pick<MemoryStore, 'read'>, target: MemoryTargetName): MemoryStoreView {
  const config = app.core.config.get().memory
  const { entries, usage } = store.read(target)
  return {
    entries,
    info: memoryEntryInfo(app.core, target, entries),
    current: usage.current,
    limit: usage.limit,
    enabled: target === 'user' ? config.userProfileEnabled : config.enabled
  }
}

/** A file as the ledger names it: relative to the data home, forward slashes. */
function ledgerTargetOf(home: string, path: string): string {
  return relative(home, path).split(sep).join('/')
}

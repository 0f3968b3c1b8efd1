import type { WriteContext } from '../../../shared/ledger'
import type { MemoryArchive } from './memory-archive'
import type { MemoryStore } from './memory-store'
import type { MemoryResult } from './types'

export type MoveBackOutcome =
  | { kind: 'moved'; result: MemoryResult }
  | { kind: 'missing' }
  /** The core file has no room for it: nothing changed (the entry stays archived). */
  | { kind: 'no_room'; current: number; limit: number }
  /** The core refused it for another reason (a similar entry, a threat): its result says why; the entry stays archived. */
  | { kind: 'refused'; result: MemoryResult }

/**
 * "Move back to memory": the archived entry is added to its core file (never overflowing back into the
 * archive), then removed from the archive. Both are ledger rows, so each can be reverted. An entry
 * the core already holds word for word just leaves the archive.
 */
export async function moveBackToCore(stores: { memory: MemoryStore; archive: MemoryArchive }, id: number, write: WriteContext): Promise<MoveBackOutcome> {
  const entry = stores.archive.get(id)
  if (!entry) return { kind: 'missing' }
  // A project entry goes back into its own project's PROJECT.md, whichever workspace is open.
  const memory = entry.target === 'project' && entry.projectKey ? stores.memory.forProject({ key: entry.projectKey, workspace: '' }) : stores.memory
  const { usage } = memory.read(entry.target)
  const result = await memory.add(entry.target, entry.text, { write }, { overflow: false, allowSimilar: true })
  if (!result.success) {
    const room = usage.limit - usage.current
    return room < entry.text.length + 3 ? { kind: 'no_room', current: usage.current, limit: usage.limit } : { kind: 'refused', result }
  }
  stores.archive.remove(id, write)
  return { kind: 'moved', result }
}

import type { LedgerEntry, LedgerKind } from '../../../../shared/ledger'
import { isArchiveEntry, isMemoryEntry, memoryStoreOfTarget, type MemoryStoreName } from '../../../../shared/ledger-names'
import type { MessageKey, Translate } from '../../../../shared/i18n'

export const kindLabel: Record<LedgerKind, MessageKey> = {
  'memory.add': 'kind.memory.add',
  'memory.replace': 'kind.memory.replace',
  'memory.remove': 'kind.memory.remove',
  'skill.create': 'kind.skill.create',
  'skill.patch': 'kind.skill.patch',
  'skill.edit': 'kind.skill.edit',
  'skill.delete': 'kind.skill.delete',
  'skill.file_write': 'kind.skill.file_write',
  'skill.file_remove': 'kind.skill.file_remove',
  'archive.add': 'kind.archive.add',
  'archive.remove': 'kind.archive.remove'
}

/** Which memory store a row touched. */
export function memoryStoreOf(entry: LedgerEntry): MemoryStoreName {
  return isMemoryEntry(entry) || isArchiveEntry(entry) ? entry.meta.store : memoryStoreOfTarget(entry.target)
}

/** The file inside the skill folder (`SKILL.md`, `scripts/run.sh`), from `skills/<category>/<name>/<file>`. */
export function skillFileOf(entry: Pick<LedgerEntry, 'target'>, skill: string | null): string {
  if (!skill) return entry.target
  const parts = entry.target.split('/')
  const at = parts.lastIndexOf(skill)
  return at >= 0 && at < parts.length - 1 ? parts.slice(at + 1).join('/') : parts[parts.length - 1]
}

/** What a revert row wrote, undone: the kind of change it undid when that row is not loaded. */
const undoOf: Record<LedgerKind, LedgerKind> = {
  'memory.add': 'memory.remove',
  'memory.remove': 'memory.add',
  'memory.replace': 'memory.replace',
  'skill.create': 'skill.delete',
  'skill.delete': 'skill.create',
  'skill.patch': 'skill.patch',
  'skill.edit': 'skill.edit',
  'skill.file_write': 'skill.file_remove',
  'skill.file_remove': 'skill.file_write',
  'archive.add': 'archive.remove',
  'archive.remove': 'archive.add'
}

/**
 * The row's headline key and params: "Memory added", or for an undo "Undo of “Memory added”" (the kind of
 * the row it undid, read from that row when it is loaded), so the timeline never reads "Skill patched · Undo".
 */
export function headlineOf(entry: LedgerEntry, byId: ReadonlyMap<number, LedgerEntry>): { key: MessageKey; kind: MessageKey | null } {
  const revertOf = entry.meta.revertOf
  if (entry.source !== 'revert' || revertOf === undefined) return { key: kindLabel[entry.kind], kind: null }
  const undone = byId.get(revertOf)?.kind ?? undoOf[entry.kind]
  return { key: 'library.undoOf', kind: kindLabel[undone] }
}

/** The headline in words; `isUndo` says it names the undone change (so no "Undo" badge is needed beside it). */
export function wordHeadline(entry: LedgerEntry, byId: ReadonlyMap<number, LedgerEntry>, t: Translate): { text: string; isUndo: boolean } {
  const { key, kind } = headlineOf(entry, byId)
  return kind ? { text: t(key, { kind: t(kind) }), isUndo: true } : { text: t(key), isUndo: false }
}

import type { LedgerEntry, LedgerKind, LedgerSource } from '../../../../shared/ledger'
import { isMemoryEntry, memoryStoreOfTarget, type MemoryStoreName } from '../../../../shared/ledger-names'
import type { MessageKey } from '../../../../shared/i18n'

export const kindLabel: Record<LedgerKind, MessageKey> = {
  'memory.add': 'kind.memory.add',
  'memory.replace': 'kind.memory.replace',
  'memory.remove': 'kind.memory.remove',
  'skill.create': 'kind.skill.create',
  'skill.patch': 'kind.skill.patch',
  'skill.edit': 'kind.skill.edit',
  'skill.delete': 'kind.skill.delete',
  'skill.file_write': 'kind.skill.file_write',
  'skill.file_remove': 'kind.skill.file_remove'
}

export const sourceLabel: Record<LedgerSource, MessageKey> = {
  agent: 'source.agent',
  review: 'source.review',
  user: 'source.user',
  import: 'source.import',
  revert: 'source.revert'
}

/** Which memory store a row touched. */
export function memoryStoreOf(entry: LedgerEntry): MemoryStoreName {
  return isMemoryEntry(entry) ? entry.meta.store : memoryStoreOfTarget(entry.target)
}

/** The file inside the skill folder (`SKILL.md`, `scripts/run.sh`), from `skills/<category>/<name>/<file>`. */
export function skillFileOf(entry: Pick<LedgerEntry, 'target'>, skill: string | null): string {
  if (!skill) return entry.target
  const parts = entry.target.split('/')
  const at = parts.lastIndexOf(skill)
  return at >= 0 && at < parts.length - 1 ? parts.slice(at + 1).join('/') : parts[parts.length - 1]
}

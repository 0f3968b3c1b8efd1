import type { MemoryLedgerEntry } from '../../../../shared/ledger'

/** The text a row left the entry with; for a removal, the text it removed (what a restore puts back). */
export function versionText(entry: MemoryLedgerEntry): string | null {
  return entry.kind === 'memory.remove' ? entry.before : entry.after
}

/** The memory file's name (`USER.md`), for the diff viewer's header. */
export function fileOf(entry: MemoryLedgerEntry): string {
  return entry.target.split('/').pop() ?? entry.target
}

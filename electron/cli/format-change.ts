import { diffLines } from 'diff'
import type { ArchiveSource } from '../../shared/archive-names'
import { isArchiveEntry, type LedgerEntry } from '../../shared/ledger'
import { oneLine } from './io'

/** Why an entry is in the memory archive, as the CLI words it. */
export const archiveSourceWords: Record<ArchiveSource, string> = {
  overflow: 'memory was full',
  retired: 'taken out of memory',
  superseded: 'earlier wording of a replaced entry',
  added: 'added to the archive',
  imported: 'imported',
  synced: 'from another device'
}

/** A few indented lines showing what a ledger row changed: +/- entries for memory, changed lines for files. */
export function describeChange(entry: LedgerEntry, maxLines = 6): string[] {
  if (entry.kind.startsWith('memory.') || isArchiveEntry(entry)) {
    const lines: string[] = []
    if (entry.before !== null) lines.push(`- ${oneLine(entry.before, 100)}`)
    if (entry.after !== null) lines.push(`+ ${oneLine(entry.after, 100)}`)
    if (isArchiveEntry(entry)) lines.push(`  (memory archive, ${entry.meta.store}: ${archiveSourceWords[entry.meta.archiveSource]})`)
    return lines
  }
  if (entry.before === null && entry.after !== null) return [`+ new file, ${countLines(entry.after)} lines`]
  if (entry.after === null && entry.before !== null) return [`- removed file, ${countLines(entry.before)} lines`]
  const lines: string[] = []
  let hidden = 0
  for (const part of diffLines(entry.before ?? '', entry.after ?? '')) {
    if (!part.added && !part.removed) continue
    for (const line of part.value.replace(/\n$/, '').split('\n')) {
      if (lines.length < maxLines) lines.push(`${part.added ? '+' : '-'} ${oneLine(line, 100)}`)
      else hidden++
    }
  }
  if (hidden) lines.push(`  … ${hidden} more changed line${hidden === 1 ? '' : 's'}`)
  return lines
}

function countLines(text: string): number {
  return text === '' ? 0 : text.replace(/\n$/, '').split('\n').length
}

import type { WriteContext } from '../../../shared/ledger'
import type { MemoryArchive } from '../memory/memory-archive'
import { archiveKeyOf, parseArchiveFile, sameArchiveRecord, syncedArchiveOf, type SyncedArchiveEntry } from './archive-file'

export interface ArchiveBringIn {
  /** Ledger rows written (entries added or removed). */
  received: number
  /** What could not come in (the threat scan, an unreadable line), English for the report. */
  refused: string[]
}

type Side = ReadonlyMap<string, SyncedArchiveEntry>

/**
 * The three-way merge of the archive by entry: added on either side → added; removed on one side and
 * unchanged on the other → removed (changed on the other, e.g. hidden there → kept); an entry on both
 * sides takes the side that changed it since the base, and where both did (or neither had a base) a
 * hide on either side wins. Answers the entries the archive should hold.
 */
export function mergeArchiveEntries(base: Side, ours: Side, theirs: Side): Map<string, SyncedArchiveEntry> {
  const merged = new Map<string, SyncedArchiveEntry>()
  for (const key of new Set([...ours.keys(), ...theirs.keys()])) {
    const [was, mine, other] = [base.get(key), ours.get(key), theirs.get(key)]
    const unchanged = (entry: SyncedArchiveEntry): boolean => was !== undefined && sameArchiveRecord(entry, was)
    if (mine && other) {
      if (unchanged(mine)) merged.set(key, other)
      else if (unchanged(other)) merged.set(key, mine)
      else merged.set(key, { ...mine, hidden: mine.hidden || other.hidden })
    } else if (mine) {
      if (!unchanged(mine)) merged.set(key, mine)
    } else if (other) {
      if (!unchanged(other)) merged.set(key, other)
    }
  }
  return merged
}

/**
 * Brings another device's archive file into this device's archive: merged against the last synced
 * version, each added or removed entry written through MemoryArchive (so it is threat-scanned and a
 * ledger row with the sync's source and device, revertible), each other difference adopted as theirs.
 */
export function bringInArchive(archive: MemoryArchive, texts: { base: string | null; theirs: string | null }, write: WriteContext): ArchiveBringIn {
  const outcome: ArchiveBringIn = { received: 0, refused: [] }
  const base = parseArchiveFile(texts.base ?? '').entries
  const theirs = parseArchiveFile(texts.theirs ?? '')
  if (theirs.badLines.length) outcome.refused.push(`lines ${theirs.badLines.join(', ')} from another device are not archive entries`)
  const ours = new Map(syncedArchiveOf(archive).map((entry) => [archiveKeyOf(entry), entry]))
  const merged = mergeArchiveEntries(base, ours, theirs.entries)
  for (const [key, entry] of ours) {
    if (merged.has(key)) continue
    const current = archive.find(entry.target, entry.project, entry.text)
    if (current && archive.remove(current.id, write)) outcome.received++
  }
  for (const [key, entry] of merged) {
    const mine = ours.get(key)
    if (mine && sameArchiveRecord(mine, entry)) continue
    const record = { source: entry.source, addedAt: entry.added, hidden: entry.hidden }
    if (mine) {
      const current = archive.find(entry.target, entry.project, entry.text)
      if (current) archive.adopt(current.id, record)
      continue
    }
    const added = archive.add({ target: entry.target, projectKey: entry.project, text: entry.text, source: entry.source, at: entry.added, write })
    if (added.kind === 'refused') {
      outcome.refused.push(`an archived entry from another device was not brought in: ${added.reason}`)
      continue
    }
    if (added.kind === 'added') outcome.received++
    archive.adopt(added.entry.id, record)
  }
  return outcome
}

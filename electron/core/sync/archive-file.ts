import { existsSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { isArchiveSource, type ArchiveSource } from '../../../shared/archive-names'
import { writeFileAtomicText } from '../fs/atomic'
import type { MemoryArchive } from '../memory/memory-archive'
import { isMemoryTarget, type MemoryTarget } from '../memory/types'

/**
 * `memories/ARCHIVE.jsonl`: the memory archive (state.db, never synced itself) as each device writes it
 * for the others. One JSON object per line, ordered by store, project and text, so the same archive is
 * the same bytes on every device; an entry is known by its store, project and text.
 */
export const ARCHIVE_PATH = 'memories/ARCHIVE.jsonl'

/** One archived entry as synced: what identifies it, and what the devices converge on. */
export interface SyncedArchiveEntry {
  target: MemoryTarget
  project: string | null
  text: string
  source: ArchiveSource
  added: number
  hidden: boolean
}

/** What identifies an entry across devices. */
export function archiveKeyOf(entry: Pick<SyncedArchiveEntry, 'target' | 'project' | 'text'>): string {
  return JSON.stringify([entry.target, entry.project ?? '', entry.text])
}

export function sameArchiveRecord(a: SyncedArchiveEntry, b: SyncedArchiveEntry): boolean {
  return a.source === b.source && a.added === b.added && a.hidden === b.hidden
}

export function archiveFileText(entries: readonly SyncedArchiveEntry[]): string {
  return entries.map((entry) => JSON.stringify(entry) + '\n').join('')
}

/** The archive of this device as synced entries. */
export function syncedArchiveOf(archive: Pick<MemoryArchive, 'all'>): SyncedArchiveEntry[] {
  return archive.all().map((entry) => ({ target: entry.target, project: entry.projectKey, text: entry.text, source: entry.source, added: entry.addedAt, hidden: entry.hidden }))
}

/** Reads a synced archive file by line; a line that is not an entry (another device's bug, a hand edit) is left out and reported by number. */
export function parseArchiveFile(text: string): { entries: Map<string, SyncedArchiveEntry>; badLines: number[] } {
  const entries = new Map<string, SyncedArchiveEntry>()
  const badLines: number[] = []
  text.split('\n').forEach((line, index) => {
    if (!line.trim()) return
    const entry = entryOf(line)
    if (entry) entries.set(archiveKeyOf(entry), entry)
    else badLines.push(index + 1)
  })
  return { entries, badLines }
}

function entryOf(line: string): SyncedArchiveEntry | null {
  let value: unknown
  try {
    value = JSON.parse(line)
  } catch {
    return null
  }
  const { target, project, text, source, added, hidden } = (value ?? {}) as Record<string, unknown>
  if (!isMemoryTarget(target) || (project !== null && typeof project !== 'string') || typeof text !== 'string' || !text.trim()) return null
  if (!isArchiveSource(source) || typeof added !== 'number' || !Number.isFinite(added) || typeof hidden !== 'boolean') return null
  return { target, project, text, source, added, hidden }
}

/** Rewrites the synced file from the archive, only when it changed (an idle device makes no commits). Resolves with its path in the home. */
export async function writeArchiveFile(home: string, archive: Pick<MemoryArchive, 'all'>): Promise<string> {
  const text = archiveFileText(syncedArchiveOf(archive))
  const absolute = join(home, ARCHIVE_PATH)
  const current = existsSync(absolute) ? readFileSync(absolute, 'utf8') : null
  if (current !== text && !(current === null && text === '')) await writeFileAtomicText(absolute, text)
  return ARCHIVE_PATH
}

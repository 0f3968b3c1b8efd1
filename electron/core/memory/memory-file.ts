import { readFileSync, rmSync, writeFileSync } from 'node:fs'
import writeFileAtomic from 'write-file-atomic'
import type { MemoryUsage } from './types'

/** Entries are joined by a `§` line; a `§` within a line of an entry is ordinary text, a line of only `§` is refused. */
export const ENTRY_DELIMITER = '\n§\n'

/**
 * The 1-based number of the first line of `text` that holds only `§` (spaces aside), or null. Inside an
 * entry such a line would read back as a separator (the entry splits in two, or a trailing `§` glues
 * onto the next entry), so no entry may hold one.
 */
export function separatorLineNumber(text: string): number | null {
  const index = text.split('\n').findIndex((line) => line.trim() === '§')
  return index === -1 ? null : index + 1
}

/** Character count in code points, so limits match Hermes (Python `len`) for emoji and CJK text. */
export function textLength(text: string): number {
  let count = 0
  for (const _ of text) count++
  return count
}

/** Splits on the full delimiter, trims each entry and drops empty ones (no dedup). */
export function splitEntries(raw: string): string[] {
  return raw
    .split(ENTRY_DELIMITER)
    .map((entry) => entry.trim())
    .filter((entry) => entry.length > 0)
}

/** The live entries of a file: split, then exact duplicates dropped keeping the first. */
export function parseEntries(raw: string): string[] {
  return [...new Set(splitEntries(raw))]
}

export function joinEntries(entries: readonly string[]): string {
  return entries.join(ENTRY_DELIMITER)
}

/** What the limit is counted over: the joined text, so every separator costs 3 chars. */
export function charCount(entries: readonly string[]): number {
  return entries.length === 0 ? 0 : textLength(joinEntries(entries))
}

export function usageOf(entries: readonly string[], limit: number): MemoryUsage {
  const current = charCount(entries)
  const percent = limit > 0 ? Math.min(100, Math.floor((current / limit) * 100)) : 0
  return { current, limit, percent }
}

const utf8 = new TextDecoder('utf-8', { fatal: true })

/** A memory file as read: its text, and its exact bytes (`null` when it does not exist) to restore it from. */
export interface MemoryFileContent {
  text: string
  bytes: Buffer | null
}

/**
 * Reads a memory file; `''` when it does not exist. A UTF-8 BOM (Notepad) is dropped from the text. Bytes
 * that are not UTF-8 and other read errors throw: treating them as an empty store would let the next write wipe it.
 */
export function readMemoryFile(path: string): MemoryFileContent {
  let bytes: Buffer
  try {
    bytes = readFileSync(path)
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return { text: '', bytes: null }
    throw error
  }
  try {
    return { text: utf8.decode(bytes), bytes }
  } catch {
    throw new Error('not valid UTF-8 text')
  }
}

/** Raw text of a memory file (see {@link readMemoryFile}). */
export function readMemoryText(path: string): string {
  return readMemoryFile(path).text
}

/** Puts a file back exactly as {@link readMemoryFile} found it (atomically), or removes it if it did not exist. */
export async function restoreMemoryFile(path: string, bytes: Buffer | null): Promise<void> {
  if (bytes === null) rmSync(path, { force: true })
  else await writeFileAtomic(path, bytes, { fsync: true })
}

/**
 * True when rewriting the file from its parsed entries would lose text someone else put there:
 * the file does not round-trip, or one "entry" is longer than the whole store may be (a free-form
 * append without separators). Rewriting such a file is what clobbered notes in Hermes #26045.
 */
export function hasExternalDrift(raw: string, limit: number): boolean {
  const trimmed = raw.trim()
  if (trimmed === '') return false
  const entries = splitEntries(raw)
  return trimmed !== joinEntries(entries) || entries.some((entry) => textLength(entry) > limit)
}

/** Copies the file's text to `<file>.bak.<ms>` (a new name on every call) and returns that path. */
export function writeDriftBackup(path: string, raw: string): string {
  const stamp = Date.now()
  for (let attempt = 0; ; attempt++) {
    const backup = `${path}.bak.${stamp}${attempt === 0 ? '' : `-${attempt}`}`
    try {
      writeFileSync(backup, raw, { encoding: 'utf8', flag: 'wx' })
      return backup
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error
    }
  }
}

import type { Dirent, Stats } from 'node:fs'
import { existsSync, readdirSync, statSync } from 'node:fs'
import { open } from 'node:fs/promises'
import { basename, dirname } from 'node:path'

/** Folders listed but never descended into: huge, generated, and almost never what the user means. */
export const SKIPPED_DIRS: ReadonlySet<string> = new Set(['.git', 'node_modules'])

export type EntryType = 'file' | 'dir' | 'symlink' | 'other'

export function entryType(entry: Dirent | Stats): EntryType {
  if (entry.isSymbolicLink()) return 'symlink'
  if (entry.isDirectory()) return 'dir'
  if (entry.isFile()) return 'file'
  return 'other'
}

/** How much of a file is sniffed for NUL bytes (git uses the same 8 KiB heuristic). */
const SNIFF_BYTES = 8_192

export function looksBinary(bytes: Uint8Array): boolean {
  const end = Math.min(bytes.length, SNIFF_BYTES)
  for (let i = 0; i < end; i++) if (bytes[i] === 0) return true
  return false
}

export async function isBinaryFile(path: string): Promise<boolean> {
  const handle = await open(path, 'r')
  try {
    const buffer = Buffer.alloc(SNIFF_BYTES)
    const { bytesRead } = await handle.read(buffer, 0, SNIFF_BYTES, 0)
    return looksBinary(buffer.subarray(0, bytesRead))
  } finally {
    await handle.close()
  }
}

export function statOrNull(path: string): Stats | null {
  try {
    return statSync(path)
  } catch {
    return null
  }
}

function editDistance(a: string, b: string): number {
  const previous = Array.from({ length: b.length + 1 }, (_, i) => i)
  for (let i = 1; i <= a.length; i++) {
    let diagonal = previous[0]
    previous[0] = i
    for (let j = 1; j <= b.length; j++) {
      const above = previous[j]
      previous[j] = Math.min(above + 1, previous[j - 1] + 1, diagonal + (a[i - 1] === b[j - 1] ? 0 : 1))
      diagonal = above
    }
  }
  return previous[b.length]
}

function stem(name: string): string {
  const dot = name.lastIndexOf('.')
  return dot > 0 ? name.slice(0, dot) : name
}

/** Names in `dir` that look like a typo of `wanted` (edit distance, same stem, or containment), best first. */
export function closestNames(dir: string, wanted: string, limit = 5): string[] {
  let names: string[]
  try {
    names = readdirSync(dir)
  } catch {
    return []
  }
  const target = wanted.toLowerCase()
  const scored = names.map((name) => {
    const lower = name.toLowerCase()
    let score = editDistance(lower, target)
    if (stem(lower) === stem(target)) score = Math.min(score, 1)
    else if (target.length >= 3 && (lower.includes(target) || target.includes(lower))) score = Math.min(score, 2)
    return { name, score }
  })
  const allowed = Math.max(2, Math.floor(target.length / 2))
  return scored
    .filter((entry) => entry.score <= allowed)
    .sort((a, b) => a.score - b.score || a.name.localeCompare(b.name))
    .slice(0, limit)
    .map((entry) => entry.name)
}

/** A "not found" message that names the closest existing entries, or the nearest folder that does exist. */
export function notFoundMessage(abs: string, display: string, what: 'File' | 'Folder' | 'Path'): string {
  const parent = dirname(abs)
  if (existsSync(parent)) {
    const suggestions = closestNames(parent, basename(abs))
    const prefix = display.includes('/') ? display.slice(0, display.lastIndexOf('/') + 1) : ''
    const hint = suggestions.length > 0 ? ` Did you mean: ${suggestions.map((name) => prefix + name).join(', ')}?` : ''
    return `${what} not found: ${display}.${hint} Check the name, or use list_dir / search_files to find it.`
  }
  let existing = parent
  while (!existsSync(existing) && dirname(existing) !== existing) existing = dirname(existing)
  return `${what} not found: ${display} (its folder does not exist; the nearest existing folder is ${existing}). Use list_dir on that folder to see what is there.`
}

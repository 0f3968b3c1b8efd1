/**
 * Real state.db files with real damage, for the corruption tests: a data home seeded through the
 * core (sessions and messages, a memory entry, a skill), closed cleanly, then cut short, overwritten
 * page by page with garbage, or emptied.
 */
import { closeSync, mkdtempSync, openSync, readFileSync, statSync, truncateSync, writeSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import Database from 'better-sqlite3'
import { CairnCore } from '../../../electron/core/cairn'

export const PAGE = 4096

/** A word only the seeded messages hold, for finding them again after a salvage. */
export const MARKER = 'zanzibarquokka'

export interface SeededHome {
  home: string
  stateDb: string
  sessions: number
  messages: number
}

/** A data home with `sessions` conversations of two messages each (about 1 KB per message). */
export async function seedHome(sessions = 120, prefix = 'cairn-damaged-'): Promise<SeededHome> {
  const home = mkdtempSync(join(tmpdir(), prefix))
  const core = await CairnCore.open({ home })
  try {
    for (let i = 0; i < sessions; i++) {
      const session = core.sessions.create({ title: `conversation ${i}` })
      core.sessions.appendMany(session.id, [
        { role: 'user', content: `How do I fix the ${MARKER} build number ${i}? ${'context words '.repeat(40)}` },
        { role: 'assistant', content: `Pin the base image, case ${i}. ${'answer words '.repeat(40)}` }
      ])
    }
    await core.memory.add('memory', 'The build server is called atlas.', { write: { source: 'user' } })
  } finally {
    await core.close()
  }
  return { home, stateDb: join(home, 'state.db'), sessions, messages: sessions * 2 }
}

/** Cuts the file to `fraction` of its pages (a disk that filled up, a copy that stopped half-way). */
export function truncateDb(path: string, fraction = 0.5): void {
  const pages = Math.floor(statSync(path).size / PAGE)
  truncateSync(path, Math.max(1, Math.floor(pages * fraction)) * PAGE)
}

/** Overwrites pages `first`… (1-based) with deterministic garbage. */
export function overwritePages(path: string, first: number, count: number): void {
  let seed = 0x2545f491
  const garbage = Buffer.alloc(count * PAGE)
  for (let i = 0; i < garbage.length; i++) {
    seed ^= seed << 13
    seed ^= seed >>> 17
    seed ^= seed << 5
    garbage[i] = seed & 0xff
  }
  const fd = openSync(path, 'r+')
  try {
    writeSync(fd, garbage, 0, garbage.length, (first - 1) * PAGE)
  } finally {
    closeSync(fd)
  }
}

export function pageCount(path: string): number {
  return Math.floor(statSync(path).size / PAGE)
}

export function bytesOf(path: string): Buffer {
  return readFileSync(path)
}

/** Pages of one b-tree in a healthy file (SQLite's dbstat), to damage exactly one table. */
export function pagesOf(path: string, name: string, pagetype?: 'leaf' | 'internal' | 'overflow'): number[] {
  const db = new Database(path, { readonly: true })
  try {
    const rows = db
      .prepare(`SELECT pageno FROM dbstat WHERE name = ? ${pagetype ? 'AND pagetype = ?' : ''} ORDER BY pageno`)
      .pluck()
      .all(...(pagetype ? [name, pagetype] : [name])) as number[]
    return rows
  } finally {
    db.close()
  }
}

/** How many rows (cells) those pages of one b-tree hold. */
export function cellsOn(path: string, name: string, pages: number[]): number {
  const db = new Database(path, { readonly: true })
  try {
    const all = db.prepare('SELECT pageno, ncell FROM dbstat WHERE name = ?').all(name) as Array<{ pageno: number; ncell: number }>
    return all.filter((row) => pages.includes(row.pageno)).reduce((sum, row) => sum + row.ncell, 0)
  } finally {
    db.close()
  }
}

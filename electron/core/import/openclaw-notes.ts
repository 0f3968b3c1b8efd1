import { readdirSync, statSync } from 'node:fs'
import { join } from 'node:path'
import { ImportedSessionWriter } from './imported-sessions'
import type { ImportRun } from './import-run'
import { readSourceText } from './memory-merge'
import { importedSessionSource } from './types'

/** OpenClaw's daily logs: `memory/YYYY-MM-DD.md`, and the session-memory hook's `memory/YYYY-MM-DD-<slug>.md`. */
const DAILY_LOG = /^(\d{4})-(\d{2})-(\d{2})(?:-(.+))?\.md$/

/** Midnight UTC of a log's date, or null when the name is not a real date (`2026-02-31`). */
function dateOf(match: RegExpExecArray): number | null {
  const [year, month, day] = [Number(match[1]), Number(match[2]), Number(match[3])]
  const at = Date.UTC(year, month - 1, day)
  const date = new Date(at)
  return date.getUTCFullYear() === year && date.getUTCMonth() === month - 1 && date.getUTCDate() === day ? at : null
}

/**
 * Brings OpenClaw's daily logs in as searchable notes, not memory: they are raw, append-only notes of
 * the day, and a fact among them is for the user (or a review they ask for) to learn. Each log becomes
 * one imported session (source `import:openclaw`, titled "OpenClaw notes <date>") holding the file's
 * text, so history search finds it and nothing is learned silently. A log imported before (same
 * file name) is left as it is. Anything else in `memory/` is reported and left out.
 */
export function importOpenClawNotes(run: ImportRun, workspace: string): void {
  const dir = join(workspace, 'memory')
  let names: string[]
  try {
    if (!statSync(dir).isDirectory()) return
    names = readdirSync(dir).sort()
  } catch {
    return
  }
  const writer = new ImportedSessionWriter(run.core, importedSessionSource('openclaw'), run.importId, run.counts)
  for (const [index, name] of names.entries()) {
    run.onProgress?.({ phase: 'sessions', done: index, total: names.length })
    const file = `memory/${name}`
    const match = DAILY_LOG.exec(name)
    const at = match ? dateOf(match) : null
    if (!match || at === null) {
      if (!name.startsWith('.')) run.problems.push({ file, message: 'left out: only the daily logs (memory/YYYY-MM-DD.md) come in, as searchable notes.' })
      continue
    }
    if (writer.existing(file)) {
      run.counts.sessions.existing++
      continue
    }
    const read = readSourceText(join(dir, name), file)
    if ('problem' in read) {
      run.problems.push(read.problem)
      continue
    }
    const text = read.text.trim()
    if (!text) continue
    const slug = match[4] ? ` (${match[4]})` : ''
    try {
      writer.write({
        externalId: file,
        title: `OpenClaw notes ${match[1]}-${match[2]}-${match[3]}${slug}`,
        model: null,
        startedAt: at,
        endedAt: null,
        // The agent wrote its own notes, so they read as its words, not the user's.
        messages: [{ role: 'assistant', content: text, createdAt: at }]
      })
    } catch (error) {
      run.problems.push({ file, message: `could not be imported: ${(error as Error).message}` })
    }
  }
  run.onProgress?.({ phase: 'sessions', done: names.length, total: names.length })
}

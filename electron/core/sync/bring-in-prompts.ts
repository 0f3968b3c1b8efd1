import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { PromptError, PromptStore, promptNameOfPath } from '../prompts'
import { mergeText } from './merge-text'
import type { SyncConflict } from './types'

/** One synced prompt file the other side changed: its text at the merge base and on the other side (null: absent). */
export interface PromptFileChange {
  path: string
  base: Buffer | null
  theirs: Buffer | null
}

export interface PromptsBringIn {
  received: number
  conflicts: SyncConflict[]
  refused: { file: string; reason: string }[]
}

/**
 * Brings the other side's saved prompts in as skills' files come in: per file, if only one side changed
 * it, that side; both changed without overlap, the line merge; overlapping changes keep this device's
 * prompt and save the other's beside it as `<name>-conflict.md`, so neither is lost (a copy refused or
 * not written is reported). Removed there and unchanged here, removed. What comes in is threat-scanned
 * and must read as a prompt (else reported).
 */
export async function bringInPrompts(home: string, changes: readonly PromptFileChange[]): Promise<PromptsBringIn> {
  const outcome: PromptsBringIn = { received: 0, conflicts: [], refused: [] }
  const store = new PromptStore(home)
  for (const change of changes) {
    const name = promptNameOfPath(change.path)
    if (!name) continue
    try {
      await bringInOne(store, home, name, change, outcome)
    } catch (error) {
      if (!(error instanceof PromptError)) throw error
      outcome.refused.push({ file: change.path, reason: error.message })
    }
  }
  return outcome
}

async function bringInOne(store: PromptStore, home: string, name: string, change: PromptFileChange, outcome: PromptsBringIn): Promise<void> {
  const ours = readText(join(home, change.path))
  const base = change.base?.toString('utf8') ?? null
  const theirs = change.theirs?.toString('utf8') ?? null
  if (ours === theirs) return
  if (theirs === null) {
    // Changed here since: this device's prompt stays (and goes back at the next push).
    if (ours !== base) outcome.conflicts.push({ file: change.path, resolution: 'kept_local' })
    else {
      await store.delete(name)
      outcome.received++
    }
    return
  }
  let next = theirs
  if (ours !== null && ours !== base) {
    const merged = mergeText(base, ours, theirs)
    if (!merged.clean) {
      outcome.conflicts.push({ file: change.path, resolution: 'kept_local' })
      const copy = `${name.slice(0, 55)}-conflict`
      // Refused (the threat scan, not a prompt) or not written: reported, so the other side's version is not lost unsaid.
      await store.writeText(copy, renamed(theirs, copy), { screen: true, previousName: copy }).catch((error: unknown) => {
        outcome.refused.push({ file: change.path.replace(/[^/]+$/, `${copy}.md`), reason: error instanceof Error ? error.message : String(error) })
      })
      return
    }
    next = merged.text
    if (next === ours) return
  }
  await store.writeText(name, next, { screen: true, previousName: name })
  outcome.received++
}

/** The other side's file saved under another name: its front matter's `name` follows. */
function renamed(text: string, name: string): string {
  return /^---\r?\n/.test(text) ? text.replace(/^(---\r?\n(?:[\s\S]*?\r?\n)?)name:[^\r\n]*/, `$1name: ${name}`) : text
}

function readText(path: string): string | null {
  try {
    return readFileSync(path, 'utf8')
  } catch {
    return null
  }
}

import { existsSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import type { CairnCore } from '../cairn'
import { ProposalStore } from '../ledger/proposals'
import { separatorLineError } from '../memory/entry-ops'
import { charCount, ENTRY_DELIMITER, textLength } from '../memory/memory-file'
import type { MemoryTarget } from '../memory/types'
import { scanForThreats, threatMessage } from '../security/threats'
import { isNearDuplicate } from '../text/entry-similarity'
import type { ImportCounts, ImportProblem } from './types'

/** The two memory files of a Hermes (or Cairn) home, by store. */
const MEMORY_FILES: Record<MemoryTarget, string> = { memory: 'MEMORY.md', user: 'USER.md' }

/** Why an imported entry waits in the Inbox (the rationale a review would write, in English like those). */
const OVER_LIMIT_RATIONALE = "Imported, but it did not fit under the memory file's limit, so it waits here instead of being cut. Make room (or shorten it), then approve."

/** An entry of an imported memory file, with the line it starts on (for problems). */
export interface SourceEntry {
  text: string
  line: number
}

/** What merging one file into Cairn's would do. */
export interface MemoryPlan {
  target: MemoryTarget
  file: string
  /** Fit under Cairn's limit: added. */
  add: string[]
  /** Do not fit: each becomes an Inbox proposal (unless the same one waits already). */
  propose: string[]
  duplicates: number
  /** Entries refused (threat scan, longer than the whole file may be): each one is in `problems`. */
  refused: number
  problems: ImportProblem[]
}

/**
 * The entries of a memory file with their first lines, split like Cairn's own (on a `§` line), so a
 * problem can point at the line in the user's file.
 */
export function readSourceEntries(text: string): SourceEntry[] {
  const entries: SourceEntry[] = []
  let line = 1
  for (const part of text.replace(/\r\n/g, '\n').split(ENTRY_DELIMITER)) {
    const leading = part.length - part.trimStart().length
    const trimmed = part.trim()
    if (trimmed) entries.push({ text: trimmed, line: line + countNewlines(part.slice(0, leading)) })
    line += countNewlines(part) + 2
  }
  return entries
}

function countNewlines(text: string): number {
  let count = 0
  for (const char of text) if (char === '\n') count++
  return count
}

/**
 * Plans merging `<home>/memories/<file>` into Cairn's store: duplicates of what Cairn has (or of an
 * earlier imported entry) are dropped, entries the threat scan refuses are reported, and the rest is
 * added in file order while it fits under Cairn's limit; what does not fit is proposed instead of cut.
 */
export function planMemoryMerge(core: CairnCore, home: string, target: MemoryTarget): MemoryPlan | null {
  const file = `memories/${MEMORY_FILES[target]}`
  const path = join(home, file)
  if (!existsSync(path)) return null
  const plan: MemoryPlan = { target, file, add: [], propose: [], duplicates: 0, refused: 0, problems: [] }
  let text: string
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(readFileSync(path))
  } catch (error) {
    plan.problems.push({ file, message: `could not be read as UTF-8 text (${(error as Error).message}); none of its entries came in.` })
    return plan
  }
  const { entries: current, usage } = core.memory.read(target)
  const kept = [...current]
  for (const entry of readSourceEntries(text)) {
    if (kept.some((other) => isNearDuplicate(other, entry.text))) {
      plan.duplicates++
      continue
    }
    const refused = separatorLineError(entry.text, MEMORY_FILES[target]) ?? threatMessage(scanForThreats(entry.text, 'strict'))
    if (refused) {
      plan.refused++
      plan.problems.push({ file, line: entry.line, message: `entry not imported: ${refused}` })
      continue
    }
    if (textLength(entry.text) > usage.limit) {
      plan.refused++
      plan.problems.push({
        file,
        line: entry.line,
        message: `entry not imported: it is ${textLength(entry.text)} characters and Cairn's ${MEMORY_FILES[target]} holds ${usage.limit} in all.`
      })
      continue
    }
    kept.push(entry.text)
    if (charCount([...current, ...plan.add, entry.text]) <= usage.limit) plan.add.push(entry.text)
    else plan.propose.push(entry.text)
  }
  return plan
}

/** Applies a plan: one all-or-nothing batch of adds (one ledger row each), then the proposals. */
export async function applyMemoryPlan(core: CairnCore, plan: MemoryPlan, reviewId: string, counts: ImportCounts, problems: ImportProblem[]): Promise<void> {
  counts.memory.duplicates += plan.duplicates
  counts.memory.refused += plan.refused
  problems.push(...plan.problems)
  if (plan.add.length) {
    const result = await core.memory.applyBatch(
      plan.target,
      plan.add.map((content) => ({ action: 'add', content })),
      { write: { source: 'import', reviewId } }
    )
    if (result.success) counts.memory.added += plan.add.length
    else problems.push({ file: plan.file, message: `its entries could not be added to Cairn's memory: ${result.error}` })
  }
  const proposals = new ProposalStore(core.db)
  for (const text of plan.propose) {
    const change = { kind: 'memory.add' as const, target: plan.file, before: null, after: text, meta: { store: plan.target } }
    if (proposals.findIdentical(change, ['pending', 'rejected'])) continue
    // No review ran: like another agent's suggestion over MCP, it waits under the batch's id. Making room
    // is a consolidation, which is why it is filed as curation (always asks).
    proposals.add({ origin: 'review', reviewId, sessionId: null, ...change, reasons: [], cause: 'import_overflow', rationale: OVER_LIMIT_RATIONALE })
    counts.memory.proposed++
  }
}

/** A dry run's count of what {@link applyMemoryPlan} would do. */
export function countMemoryPlan(core: CairnCore, plan: MemoryPlan, counts: ImportCounts, problems: ImportProblem[]): void {
  const proposals = new ProposalStore(core.db)
  counts.memory.duplicates += plan.duplicates
  counts.memory.refused += plan.refused
  counts.memory.added += plan.add.length
  counts.memory.proposed += plan.propose.filter(
    (text) => !proposals.findIdentical({ target: plan.file, before: null, after: text }, ['pending', 'rejected'])
  ).length
  problems.push(...plan.problems)
}

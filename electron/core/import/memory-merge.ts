import { existsSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import type { ImportHome, ImportMemory } from './import-home'
import { ProposalStore } from '../ledger/proposals'
import { separatorLineError } from '../memory/entry-ops'
import { charCount, ENTRY_DELIMITER, textLength } from '../memory/memory-file'
import type { MemoryTarget } from '../memory/types'
import { scanForThreats, threatMessage } from '../security/threats'
import { importProvenance } from './skill-import'
import { isNearDuplicate } from '../text/entry-similarity'
import type { ProposalCause } from '../../../shared/proposals'
import type { ImportCounts, ImportProblem } from './types'
import { reachedThroughLink } from './source-files'

/** The two memory files of a Hermes (or Cairn) home, by store. */
const MEMORY_FILES: Record<MemoryTarget, string> = { memory: 'MEMORY.md', user: 'USER.md', project: 'PROJECT.md' }

/** The cause of a candidate entry: another agent's memory, proposed rather than written. */
const CANDIDATE_CAUSE: ProposalCause = 'imported_memory'

/** An entry of an imported memory file, with the line it starts on (for problems). */
export interface SourceEntry {
  text: string
  line: number
  /** The file it came from, relative to the imported home, when a plan gathers entries from several. */
  file?: string
}

/** An entry that waits in the Inbox, and why. */
export interface ProposedEntry {
  text: string
  cause: ProposalCause
  rationale: string
}

/** What merging one file into Cairn's would do. */
export interface MemoryPlan {
  target: MemoryTarget
  /** The store the entries go to: the core's, or a workspace's for its project memory. */
  store: ImportMemory
  /** Where the entries came from, relative to the imported home (for problems). */
  file: string
  /** Fit under Cairn's limit: added. */
  add: string[]
  /** Do not fit under the limit: kept in the archive (source `imported`) rather than cut or proposed. */
  archive: string[]
  /** Only candidates: each becomes an Inbox proposal (unless the same one waits already). */
  propose: ProposedEntry[]
  duplicates: number
  /** Entries refused (threat scan, longer than the whole file may be): each one is in `problems`. */
  refused: number
  problems: ImportProblem[]
}

/** Cairn's own file of a store, as the ledger and the Inbox name it (a project's PROJECT.md under its key). */
export function cairnMemoryFile(target: MemoryTarget, store?: Pick<ImportMemory, 'project'>): string {
  const project = target === 'project' ? store?.project : null
  return project ? `memories/projects/${project.key}/PROJECT.md` : `memories/${MEMORY_FILES[target]}`
}

const utf8 = new TextDecoder('utf-8', { fatal: true })

const LINK_MESSAGE = 'left out: it is a link, and only files inside the folder being imported come in.'

/** A file of the imported home as text, or the problem that says why it is not (named by `file`). */
export function readSourceText(path: string, file: string): { text: string } | { problem: ImportProblem } {
  if (reachedThroughLink(path, file)) return { problem: { file, message: LINK_MESSAGE } }
  let bytes: Buffer
  try {
    bytes = readFileSync(path)
  } catch (error) {
    return { problem: { file, message: `could not be read (${(error as Error).message}); nothing in it came in.` } }
  }
  try {
    return { text: utf8.decode(bytes).replace(/\r\n/g, '\n') }
  } catch {
    return { problem: { file, message: 'could not be read as UTF-8 text; nothing in it came in.' } }
  }
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

/** Plans merging `<home>/memories/<file>` (Hermes's `§`-separated entries) into Cairn's store; null when there is no such file. */
export function planMemoryMerge(core: ImportHome, home: string, target: MemoryTarget): MemoryPlan | null {
  const file = `memories/${MEMORY_FILES[target]}`
  const path = join(home, file)
  if (!existsSync(path)) return null
  const read = readSourceText(path, file)
  if ('problem' in read) return { ...emptyPlan(core.memory, target, file), problems: [read.problem] }
  return planEntries(core, { target, file, entries: readSourceEntries(read.text) })
}

function emptyPlan(store: ImportMemory, target: MemoryTarget, file: string): MemoryPlan {
  return { target, store, file, add: [], archive: [], propose: [], duplicates: 0, refused: 0, problems: [] }
}

/** Where some entries go, and how: merged (what fits is added) or only proposed as candidates. */
export interface EntrySource {
  target: MemoryTarget
  file: string
  entries: SourceEntry[]
  /** A workspace's store (`memory.forWorkspace`) for target `project`; default the core's. */
  store?: ImportMemory
  /** Every entry that is not a duplicate waits in the Inbox with this rationale instead of being added. */
  candidates?: { rationale: (entry: SourceEntry) => string }
}

/**
 * Plans merging entries into Cairn's store: duplicates of what Cairn has (or of an earlier imported
 * entry) are dropped, entries the threat scan refuses are reported, and the rest is added in order
 * while it fits under Cairn's limit; what does not fit goes to the archive instead of being cut. Candidates are all proposed.
 */
export function planEntries(core: ImportHome, source: EntrySource): MemoryPlan {
  const { target } = source
  const plan = emptyPlan(source.store ?? core.memory, target, source.file)
  const { entries: current, usage } = plan.store.read(target)
  const kept = [...current]
  for (const entry of source.entries) {
    const file = entry.file ?? source.file
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
    if (source.candidates) plan.propose.push({ text: entry.text, cause: CANDIDATE_CAUSE, rationale: source.candidates.rationale(entry) })
    else if (charCount([...current, ...plan.add, entry.text]) <= usage.limit) plan.add.push(entry.text)
    else plan.archive.push(entry.text)
  }
  return plan
}

/** Applies a plan: one all-or-nothing batch of adds (one ledger row each), the archived entries (a ledger row each), then the proposals. */
export async function applyMemoryPlan(core: ImportHome, plan: MemoryPlan, reviewId: string, counts: ImportCounts, problems: ImportProblem[]): Promise<void> {
  counts.memory.duplicates += plan.duplicates
  counts.memory.refused += plan.refused
  problems.push(...plan.problems)
  const write = { source: 'import' as const, reviewId, provenance: importProvenance(reviewId) }
  if (plan.add.length) {
    const result = await plan.store.applyBatch(
      plan.target,
      plan.add.map((content) => ({ action: 'add', content })),
      { write },
      // planEntries already dropped near-duplicates by its own rule and counted them; the store's check
      // would fail this all-or-nothing batch, and with it every other entry of the import, over one.
      { allowSimilar: true }
    )
    if (result.success) counts.memory.added += plan.add.length
    else problems.push({ file: plan.file, message: `its entries could not be added to Cairn's memory: ${result.error}` })
  }
  const projectKey = plan.target === 'project' ? (plan.store.project?.key ?? null) : null
  for (const text of plan.archive) {
    const archived = core.archive.add({ target: plan.target, projectKey, text, source: 'imported', provenance: write.provenance, write })
    if (archived.kind === 'added') counts.memory.archived++
    else if (archived.kind === 'exists') counts.memory.duplicates++
    else problems.push({ file: plan.file, message: `an entry could not be archived: ${archived.reason}` })
  }
  const proposals = new ProposalStore(core.db)
  for (const { text, cause, rationale } of plan.propose) {
    const change = { kind: 'memory.add' as const, target: cairnMemoryFile(plan.target, plan.store), before: null, after: text, meta: { store: plan.target, provenance: importProvenance(reviewId) } }
    if (proposals.findIdentical(change, ['pending', 'rejected'])) continue
    // No review ran: like another agent's suggestion over MCP, it waits under the batch's id.
    proposals.add({ origin: 'review', reviewId, sessionId: null, ...change, reasons: [], cause, rationale })
    counts.memory.proposed++
  }
}

/** A dry run's count of what {@link applyMemoryPlan} would do. */
export function countMemoryPlan(core: ImportHome, plan: MemoryPlan, counts: ImportCounts, problems: ImportProblem[]): void {
  const proposals = new ProposalStore(core.db)
  counts.memory.duplicates += plan.duplicates
  counts.memory.refused += plan.refused
  counts.memory.added += plan.add.length
  counts.memory.archived += plan.archive.length
  counts.memory.proposed += plan.propose.filter(
    ({ text }) => !proposals.findIdentical({ target: cairnMemoryFile(plan.target, plan.store), before: null, after: text }, ['pending', 'rejected'])
  ).length
  problems.push(...plan.problems)
}

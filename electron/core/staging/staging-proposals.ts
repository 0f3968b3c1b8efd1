import { isArchiveEntry, isMemoryEntry, isMemoryKind, normalizeLedgerMeta, skillNameOf, type LedgerEntry, type LedgerKind } from '../../../shared/ledger'
import type { ProposalCause, ProposalOrigin } from '../../../shared/proposals'
import type { ReviewJob } from '../../../shared/review-protocol'
import type { NewProposal, ProposalStore } from '../ledger/proposals'
import type { MemoryPins } from '../memory/memory-pins'
import type { MemoryTarget } from '../memory/types'
import { SKILL_FILE } from '../skills/skill-paths'
import { storedRationale } from '../../../shared/proposal-rationale'
import { shrinkFigures } from './skill-shrink'

/** One change a review staged, after merging its rows: what becomes one proposal. */
export interface StagedChange {
  kind: LedgerKind
  target: string
  before: string | null
  after: string | null
  meta: LedgerEntry['meta']
  /** The memory file, for memory changes; the skill's name, for skill changes. */
  owner: { memory: MemoryTarget } | { skill: string }
}

/**
 * Merges a review's staged rows into changes. Skill rows: one per file, its first `before` and last
 * `after` (a create then a patch is a create). Memory rows: one per entry, chaining a row whose `before`
 * is an earlier row's `after` onto it (add "a", replace "a" → "b" is one add of "b"). A chain that ends
 * where it began changes nothing and is dropped.
 */
export function mergeStagedRows(rows: readonly LedgerEntry[]): StagedChange[] {
  const changes: StagedChange[] = []
  const files = new Map<string, { change: StagedChange; kinds: Set<LedgerKind> }>()
  for (const row of rows) {
    if (isMemoryEntry(row)) {
      const { store } = normalizeLedgerMeta(row.kind, row.target, row.meta)
      const chain = row.before === null ? undefined : changes.find((c) => c.target === row.target && c.after !== null && c.after === row.before)
      if (chain) chain.after = row.after
      else changes.push({ kind: row.kind, target: row.target, before: row.before, after: row.after, meta: row.meta, owner: { memory: store } })
      continue
    }
    if (isArchiveEntry(row)) continue // staging stores have no archive; a real row is never staged
    const known = files.get(row.target)
    if (known) {
      known.change.after = row.after
      known.kinds.add(row.kind)
      // Patched, then archived (curation's merge of a skill into itself is refused; this is a skill
      // changed and then retired): what remains is the archive, of the skill as it was.
      if (row.kind === 'skill.delete') {
        known.change.kind = 'skill.delete'
        known.change.meta = row.meta
      }
      continue
    }
    const change: StagedChange = { kind: row.kind, target: row.target, before: row.before, after: row.after, meta: row.meta, owner: { skill: skillNameOf(row) } }
    files.set(row.target, { change, kinds: new Set([row.kind]) })
    changes.push(change)
  }
  for (const { change, kinds } of files.values()) {
    if (kinds.size > 1 && change.kind !== 'skill.create' && change.kind !== 'skill.delete') change.kind = change.target.endsWith(`/${SKILL_FILE}`) ? 'skill.edit' : 'skill.file_write'
  }
  return changes
    .map((change) => (isMemoryKind(change.kind) ? { ...change, kind: memoryKindOf(change.before, change.after) } : change))
    .filter((change) => change.before !== change.after)
}

export interface RecordProposalsInput {
  rows: readonly LedgerEntry[]
  job: Pick<ReviewJob, 'reviewId' | 'sessionId' | 'reasons'>
  /** The review's closing words. */
  finalText: string
  /** Why the target was staged (see ReviewStaging). */
  causeOf: (owner: StagedChange['owner']) => ProposalCause
  /** A conversation's review, or a curation pass over the library (default: review). */
  origin?: ProposalOrigin
  proposals: Pick<ProposalStore, 'add' | 'findIdentical'>
  memoryPins: Pick<MemoryPins, 'isPinned'>
}

/**
 * Stores a review's staged changes as pending proposals and returns their ids. A change identical to
 * one already waiting is not proposed twice, and one identical to a change the user rejected is not
 * proposed again.
 */
export function recordProposals(input: RecordProposalsInput): number[] {
  const rationale = rationaleOf(input.finalText)
  const ids: number[] = []
  for (const change of mergeStagedRows(input.rows)) {
    if (input.proposals.findIdentical(change, ['pending', 'rejected'])) continue
    const pinned = 'memory' in change.owner && change.before !== null && input.memoryPins.isPinned(change.owner.memory, change.before)
    const cause = causeFor(change.meta, pinned ? 'pinned_entry' : input.causeOf(change.owner))
    const proposal: NewProposal = {
      origin: input.origin ?? 'review',
      reviewId: input.job.reviewId,
      sessionId: input.job.sessionId,
      kind: change.kind,
      target: change.target,
      before: change.before,
      after: change.after,
      meta: change.meta,
      reasons: input.job.reasons,
      cause,
      rationale: cause === 'skill_shrink' ? shrinkRationale(change, rationale) : rationale
    }
    ids.push(input.proposals.add(proposal).id)
  }
  return ids
}

/** What the user owns: named before what the content came from (the Inbox still shows its source). */
const PROTECTED: ReadonlySet<ProposalCause> = new Set(['pinned_entry', 'user_skill', 'imported_skill', 'pinned_skill'])

function causeFor(meta: LedgerEntry['meta'], staged: ProposalCause): ProposalCause {
  const content = contentCause(meta)
  if (content === 'dangerous_content') return content
  return content && !PROTECTED.has(staged) ? content : staged
}

/**
 * The cause a change's own content gives it, whatever staged its file: something dangerous, always;
 * content from what was read, unless a reason about what the user owns says more.
 */
function contentCause(meta: LedgerEntry['meta']): ProposalCause | null {
  const content = meta as { dangers?: unknown[]; provenance?: { origin?: string } } | null
  if (content?.dangers?.length) return 'dangerous_content'
  return content?.provenance?.origin === 'read' ? 'untrusted_source' : null
}

/** A change held back by the skill shrink guard: its figures, from the merged change, beside the reviewer's words. */
function shrinkRationale(change: StagedChange, words: string | null): string {
  return storedRationale({ code: 'skill_shrink', ...shrinkFigures(change.before ?? '', change.after ?? ''), words })
}

const MAX_RATIONALE_CHARS = 1000

/** The review's closing words without its verdict lines (`Skill outcome: …`), or null when it gave none. */
export function rationaleOf(finalText: string): string | null {
  const text = finalText
    .split('\n')
    .filter((line) => !/^\s*skill outcome\s*:/i.test(line))
    .join('\n')
    .trim()
  if (!text) return null
  return text.length > MAX_RATIONALE_CHARS ? `${text.slice(0, MAX_RATIONALE_CHARS - 1)}…` : text
}

function memoryKindOf(before: string | null, after: string | null): LedgerKind {
  if (before === null) return 'memory.add'
  if (after === null) return 'memory.remove'
  return 'memory.replace'
}

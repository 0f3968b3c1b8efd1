import { mcpClientOf, type LedgerEntry, type LedgerSource, type WriteContext } from '../../../../shared/ledger'
import { join } from 'node:path'
import type { Proposal, ProposalCause, ProposalErrorCode, ProposalState } from '../../../../shared/proposals'
import type { HomePaths } from '../../config/home'
import type { StateDb } from '../../db/state-db'
import type { Ledger } from '../../ledger/ledger'
import type { MemoryStore } from '../../memory'
import type { SkillStore } from '../../skills'
import type { SkillFlags } from '../../skills/skill-flags'
import { withLock } from '../../fs/lock'
import { ProposalStore, type ProposalQuery } from '../../ledger/proposals'
import type { MemoryCallContext, MemoryTarget } from '../../memory/types'
import type { SkillResult } from '../../skills'
import type { LedgerMetaWriteContext } from '../../skills/skill-commit'
import { fileInSkill, isSkillFile, memoryTargetOf, skillMetaOf, TargetReader, type ProposalTargetSources } from './proposal-targets'

/** How a decision on one proposal ended: applied (or rejected) with its ledger row, or why not. */
export type DecisionResult =
  | { ok: true; proposal: Proposal; ledgerEntry: LedgerEntry | null }
  | { ok: false; code: ProposalErrorCode; error: string }

/** What applying wrote: the ledger row (none when there was nothing to change), or why it was refused. */
type Applied = { ok: true; ledgerEntry: LedgerEntry | null } | { ok: false; error: string }

const MAX_APPROVE_ALL = 10_000

/** Proposals that wait because their target is the user's: applying them is the user's own change. */
const USER_OWNED: ReadonlySet<ProposalCause> = new Set(['user_skill', 'imported_skill', 'pinned_skill', 'pinned_entry'])

/** What the Inbox reads and writes: the proposals table, the stores a decision applies through, and the ledger rows they record. */
export interface InboxSources extends ProposalTargetSources {
  db: StateDb
  paths: Pick<HomePaths, 'root' | 'locksDir'>
  ledger: Pick<Ledger, 'onRecord'>
  memory: Pick<MemoryStore, 'read' | 'add' | 'remove' | 'replace' | 'forLedgerTarget'>
  skills: Pick<SkillStore, 'get' | 'delete' | 'removeFile' | 'patch' | 'writeFile' | 'create'>
  skillFlags: Pick<SkillFlags, 'get' | 'set'>
}

/**
 * The Inbox over one data home: lists proposals (pending ones with `stale` judged against the files
 * now) and applies the user's decisions. Approving writes through the same locked stores and ledger as
 * any change (source `review`, the proposal's review and session, `meta.proposalId`), and only when the
 * target still holds the proposal's `before`: a stale proposal is refused, never applied blindly.
 */
export class Inbox {
  readonly store: ProposalStore

  constructor(private readonly core: InboxSources) {
    this.store = new ProposalStore(core.db)
  }

  list(query: ProposalQuery = {}): Proposal[] {
    const reader = new TargetReader(this.core)
    return this.store.list(query).map((proposal) => withStale(proposal, reader))
  }

  get(id: number): Proposal | null {
    const proposal = this.store.get(id)
    return proposal ? withStale(proposal, new TargetReader(this.core)) : null
  }

  pending(): { count: number; oldestAt: number | null } {
    return this.store.pending()
  }

  /**
   * Applies a pending proposal; with `editedAfter`, the user's own text instead of the proposed one.
   * Decisions on a data home take one lock (across processes: the app, a CLI), so an approve and a
   * reject of the same proposal never both happen.
   */
  approve(id: number, editedAfter?: string | null): Promise<DecisionResult> {
    return this.deciding(() => this.approveLocked(id, editedAfter))
  }

  private async approveLocked(id: number, editedAfter?: string | null): Promise<DecisionResult> {
    const proposal = this.store.get(id)
    const problem = undecided(proposal, id)
    if (problem) return problem
    const pending = proposal!
    if (new TargetReader(this.core).isStale(pending)) return stale(pending)
    const edited = editedAfter !== undefined && editedAfter !== null && editedAfter !== pending.after ? editedAfter : null
    if (edited !== null && pending.after === null) {
      return { ok: false, code: 'refused', error: `Proposal #${id} removes ${pending.target}; a removal can be approved or rejected, not edited.` }
    }
    const applied = await this.recording(pending.id, () => this.apply(pending, edited))
    if (!applied.ok) return { ok: false, code: 'refused', error: `Proposal #${id} was not applied: ${applied.error}` }
    const state: ProposalState = edited !== null ? 'edited' : 'approved'
    const decided = this.store.decide(id, { state, editedAfter: edited, ledgerId: applied.ledgerEntry?.id ?? null })
    if (!decided) return alreadyDecided(this.store.get(id), id)
    return { ok: true, proposal: decided, ledgerEntry: applied.ledgerEntry }
  }

  reject(id: number): Promise<DecisionResult> {
    return this.deciding(() => {
      const problem = undecided(this.store.get(id), id)
      if (problem) return problem
      const decided = this.store.decide(id, { state: 'rejected' })
      if (!decided) return alreadyDecided(this.store.get(id), id)
      return { ok: true, proposal: decided, ledgerEntry: null }
    })
  }

  /**
   * Sets a stale proposal aside so its change can be reviewed again against the target as it is now
   * (the caller queues that review): `superseded`, not `rejected`, so the new review may propose it anew.
   */
  supersede(id: number): Promise<DecisionResult> {
    return this.deciding(() => {
      const proposal = this.store.get(id)
      const problem = undecided(proposal, id)
      if (problem) return problem
      if (!new TargetReader(this.core).isStale(proposal!)) {
        return { ok: false, code: 'refused', error: `Proposal #${id} still fits ${proposal!.target}: approve or reject it; only a stale proposal is reviewed again.` }
      }
      const decided = this.store.decide(id, { state: 'superseded' })
      if (!decided) return alreadyDecided(this.store.get(id), id)
      return { ok: true, proposal: decided, ledgerEntry: null }
    })
  }

  private deciding(decide: () => Promise<DecisionResult> | DecisionResult): Promise<DecisionResult> {
    return withLock(join(this.core.paths.locksDir, 'inbox'), decide)
  }

  /** Approves every pending proposal (of one review, when given), oldest first; stale ones stay pending. */
  async approveAll(reviewId?: string): Promise<DecisionResult[]> {
    const pending = this.store.list({ states: ['pending'], oldestFirst: true, limit: MAX_APPROVE_ALL, ...(reviewId ? { reviewId } : {}) })
    const results: DecisionResult[] = []
    for (const proposal of pending) results.push(await this.approve(proposal.id))
    return results
  }

  /** Runs `apply` and picks out the ledger row it wrote for proposal `id`. */
  private async recording(id: number, apply: () => Promise<SkillResult | { success: boolean; error?: string } | null>): Promise<Applied> {
    const rows: LedgerEntry[] = []
    const stop = this.core.ledger.onRecord((entry) => {
      if ((entry.meta as { proposalId?: number }).proposalId === id) rows.push(entry)
    })
    try {
      const result = await apply()
      if (result && !result.success) return { ok: false, error: String(result.error ?? 'the store refused it') }
      return { ok: true, ledgerEntry: rows[0] ?? null }
    } finally {
      stop()
    }
  }

  private apply(proposal: Proposal, edited: string | null): Promise<SkillResult | { success: boolean; error?: string } | null> {
    // The user's own text, or a change to something the user owns, is the user's change: recorded as
    // theirs, so a skill they wrote stays theirs (and keeps asking) after they approve a change to it.
    // Another agent's suggestion over MCP (its review is `mcp:<client>`, no review run) stays that agent's.
    const outside = mcpClientOf(proposal.reviewId) !== null ? (proposal.reviewId as LedgerSource) : null
    const source = edited !== null || USER_OWNED.has(proposal.cause) ? 'user' : (outside ?? 'review')
    const write: WriteContext = { source, sessionId: proposal.sessionId, reviewId: outside ? null : proposal.reviewId }
    const ledgerMeta = { proposalId: proposal.id }
    if (proposal.kind === 'skill.disable') return Promise.resolve(this.applyDisable(proposal, edited))
    if (proposal.kind.startsWith('memory.')) return this.applyMemory(proposal, edited, { write, ledgerMeta })
    return this.applySkill(proposal, edited, { ...write, ledgerMeta })
  }

  /** A flag, not a file change: no ledger row (the proposal records the decision); files and history stay. */
  private applyDisable(proposal: Proposal, edited: string | null): { success: boolean; error?: string } {
    if (edited !== null) return { success: false, error: 'disabling a skill changes no text, so it cannot be edited; approve or reject it.' }
    this.core.skillFlags.set(skillMetaOf(proposal).skill, { disabled: true })
    return { success: true }
  }

  private async applyMemory(proposal: Proposal, edited: string | null, ctx: MemoryCallContext): Promise<{ success: boolean; error?: string } | null> {
    const memory = this.core.memory.forLedgerTarget(proposal.target)
    const target: MemoryTarget = memoryTargetOf(proposal)
    const before = proposal.before ?? ''
    const text = edited ?? proposal.after
    if (proposal.kind === 'memory.add') {
      const entry = (text ?? '').trim()
      if (entry && memory.read(target).entries.includes(entry)) return null // already there: nothing to do
      // The user approved it, beside whatever similar entry is there now: theirs to judge, not the similarity check's.
      return memory.add(target, entry, ctx, { allowSimilar: true })
    }
    // The user approved it: the shrink guard, meant for a model that misjudges how full memory is, does not apply.
    // Pins follow their entry on every replace (a ledger listener where the core is composed); a removed entry's pin is kept, so
    // reverting the removal brings the entry back pinned.
    if (text === null) return memory.remove(target, before, ctx, { force: true })
    return memory.replace(target, before, text, ctx, { force: true })
  }

  private applySkill(proposal: Proposal, edited: string | null, ctx: LedgerMetaWriteContext): Promise<SkillResult> {
    const { skills } = this.core
    const { skill: name, category } = skillMetaOf(proposal)
    const file = fileInSkill(proposal)
    const content = edited ?? proposal.after
    const refuse = (error: string): Promise<SkillResult> => Promise.resolve({ success: false, error })
    if (file === null) return refuse(`${proposal.target} is not a file of skill '${name}'.`)
    if (proposal.kind === 'skill.delete') {
      const absorbedInto = (proposal.meta as { absorbedInto?: string }).absorbedInto ?? null
      return skills.delete({ name, absorbed_into: absorbedInto }, ctx)
    }
    if (content === null) return isSkillFile(file) ? refuse('removing SKILL.md is a skill delete.') : skills.removeFile({ name, file_path: file }, ctx)
    if (proposal.before !== null && !isSkillFile(file)) return skills.patch({ name, file_path: file, old_string: proposal.before, new_string: content }, ctx)
    if (!isSkillFile(file)) return skills.writeFile({ name, file_path: file, file_content: content }, ctx)
    if (proposal.before === null) return skills.create({ name, category, content }, ctx)
    // A patch of the whole text: it changes the file only while it still reads as `before`, and, like
    // any patch, tolerates what the user's file already had that a strict write would refuse.
    return skills.patch({ name, old_string: proposal.before, new_string: content }, ctx)
  }
}

function withStale(proposal: Proposal, reader: TargetReader): Proposal {
  return proposal.state === 'pending' ? { ...proposal, stale: reader.isStale(proposal) } : proposal
}

function undecided(proposal: Proposal | null, id: number): DecisionResult | null {
  if (!proposal) return { ok: false, code: 'not_found', error: `There is no proposal #${id}.` }
  if (proposal.state !== 'pending') return alreadyDecided(proposal, id)
  return null
}

function alreadyDecided(proposal: Proposal | null, id: number): DecisionResult {
  if (!proposal) return { ok: false, code: 'not_found', error: `There is no proposal #${id}.` }
  return { ok: false, code: 'decided', error: `Proposal #${id} was already decided (${proposal.state}).` }
}

function stale(proposal: Proposal): DecisionResult {
  return {
    ok: false,
    code: 'stale',
    error:
      `Proposal #${proposal.id} is stale: ${proposal.target} changed since it was proposed, so it was not applied. ` +
      'Review it again (cairn inbox rereview, or "Review again" in the Inbox) to have the change proposed for the file as it is now, or reject it.'
  }
}

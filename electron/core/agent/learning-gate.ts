import { randomUUID } from 'node:crypto'
import { createTwoFilesPatch } from 'diff'
import type { ApprovalRequest } from '../../../shared/agent-events'
import type { LearningMode } from '../../../shared/config'
import type { ProposalCause } from '../../../shared/proposals'
import { describeForModel } from './learning-gate-words'
import { decideLearnedWrite, type ProtectedTarget } from '../ledger/learning-policy'
import type { ProposalStore } from '../ledger/proposals'
import { isMemoryTarget, type MemoryStore } from '../memory'
import type { MemoryPins } from '../memory/memory-pins'
import type { MemoryLimits, MemoryTarget } from '../memory/types'
import type { SkillStore } from '../skills'
import { judgeLearnedCall, type LearnedCallJudgement } from '../staging/learned-content'
import { ReviewStaging, type LearningStores } from '../staging/staging'
import { memoryNeedles, skillProtection, touchesPinnedEntry, type ProtectionDeps } from '../staging/staging-protection'
import { mergeStagedRows, recordProposals } from '../staging/staging-proposals'
import { CHAT_SCRATCH_PREFIX } from '../staging/staging-stores'
import { ProvenanceEvidence } from '../text/provenance-evidence'
import type { ToolContext, ToolDef } from '../tools/types'

/** What the chat's learning gate uses of a data home (built once where the core is composed). */
export interface ChatLearningDeps {
  memory: MemoryStore
  skills: SkillStore
  protection: ProtectionDeps
  memoryPins: Pick<MemoryPins, 'isPinned'>
  proposals: Pick<ProposalStore, 'add' | 'findIdentical'>
  /** The learning mode in effect: `off` while learning is paused. */
  mode(): LearningMode
  dataHome: string
  nativeBinding?: string
  memoryLimits(): MemoryLimits
  /** The chat's memory and skill tools over other stores: the scratch copy a proposal is prepared in. */
  makeTools(stores: LearningStores): ReadonlyMap<string, ToolDef>
  /** Told the ids of proposals the chat just made (the app announces the Inbox changed). */
  onProposed?(ids: number[]): void
}

const GATED = new Set(['memory', 'skill_manage'])

/**
 * The chat's own `memory` and `skill_manage` under the one learning policy (ledger/learning-policy.ts):
 * each write's content is judged by the conversation's evidence (ToolContext.evidence) and for what
 * dangerous it adds; then it is applied (its row saying where it came from), proposed (prepared in a
 * scratch copy, exactly as a review's proposals are), or, for what the user owns, asked about in the
 * chat and refused without a yes.
 */
export function gateLearningTools(tools: ToolDef[], deps: ChatLearningDeps, sessionId: () => string | null): ToolDef[] {
  return tools.map((tool) => (GATED.has(tool.name) ? gated(tool, deps, sessionId) : tool))
}

function gated(tool: ToolDef, deps: ChatLearningDeps, sessionId: () => string | null): ToolDef {
  return {
    ...tool,
    run: async (args, ctx) => {
      const raw = (args ?? {}) as Record<string, unknown>
      const judged = judgeLearnedCall(tool.name, raw, { skills: deps.skills, evidence: ctx.evidence ?? new ProvenanceEvidence() })
      if (!judged) return tool.run(args, ctx)
      const owned = protectedTargetOf(tool.name, raw, deps)
      // A read-only root's skill: the store refuses every write to it, as it always did.
      if (owned === 'read_only') return tool.run(args, ctx)
      const decision = decideLearnedWrite({ writer: 'chat', mode: deps.mode(), provenance: judged.provenance, dangers: judged.dangers, protectedTarget: owned })
      const write = { ...ctx.write, provenance: judged.provenance, dangers: judged.dangers }
      switch (decision.action) {
        case 'apply':
          return tool.run(args, { ...ctx, write })
        case 'propose':
          return propose(tool, args, { ...ctx, write }, decision.cause, judged, deps, sessionId)
        case 'ask':
          return askThenApply(tool, args, { ...ctx, write }, decision.cause, deps)
        case 'refuse':
          return { success: false, error: 'Learning is off for this change. Nothing was saved.' }
      }
    }
  }
}

/** What of the user's a call would change: a pinned entry, a skill they wrote, imported or pinned; `read_only` for a read-only root. */
function protectedTargetOf(name: string, args: Record<string, unknown>, deps: ChatLearningDeps): ProtectedTarget | 'read_only' | null {
  if (name === 'memory') {
    return isMemoryTarget(args.target) && touchesPinnedEntry(deps.protection, args.target, memoryNeedles(args)) ? 'pinned_entry' : null
  }
  const skill = typeof args.name === 'string' && args.action !== 'create' ? deps.skills.get(args.name) : null
  if (!skill) return null
  const protection = skillProtection(deps.protection, skill)
  return protection === 'read_only' || protection === 'user_skill' || protection === 'imported_skill' || protection === 'pinned_skill' ? protection : null
}

/** Runs the call in a scratch copy of the stores, then hands what it would change to `use`; the copy is removed after. */
async function inScratchCopy<T>(
  tool: ToolDef,
  args: unknown,
  ctx: ToolContext,
  cause: ProposalCause,
  deps: ChatLearningDeps,
  use: (staging: ReviewStaging, result: unknown, rowsBefore: number) => T
): Promise<T | unknown> {
  const staging = new ReviewStaging({
    mode: 'auto',
    dataHome: deps.dataHome,
    reviewId: randomUUID(),
    nativeBinding: deps.nativeBinding,
    memoryLimits: deps.memoryLimits,
    real: { memory: deps.memory, skills: deps.skills },
    makeTools: deps.makeTools,
    protection: deps.protection,
    scratchPrefix: CHAT_SCRATCH_PREFIX
  })
  try {
    const choice = staging.choose(tool.name, (args ?? {}) as Record<string, unknown>, tool, cause)
    if ('refusal' in choice) return choice.refusal
    // Not staged: the call cannot write (a skill that does not exist, a bad target); the tool says why.
    if (!choice.staged) return tool.run(args, ctx)
    const rowsBefore = staging.rows().length
    const result = await choice.tool.run(args, ctx)
    return use(staging, result, rowsBefore)
  } finally {
    staging.close()
  }
}

async function propose(
  tool: ToolDef,
  args: unknown,
  ctx: ToolContext,
  cause: ProposalCause,
  judged: LearnedCallJudgement,
  deps: ChatLearningDeps,
  sessionId: () => string | null
): Promise<unknown> {
  return inScratchCopy(tool, args, ctx, cause, deps, (staging, result, rowsBefore) => {
    const presented = staging.present(result, true, rowsBefore)
    const rows = staging.rows().slice(rowsBefore)
    if (rows.length === 0) return presented
    const session = sessionId()
    const ids = recordProposals({
      rows,
      job: { reviewId: `chat:${session ?? 'none'}`, sessionId: session, reasons: [] },
      finalText: '',
      causeOf: () => cause,
      proposals: deps.proposals,
      memoryPins: deps.memoryPins
    })
    if (ids.length) deps.onProposed?.(ids)
    return { ...(presented as object), proposal_ids: ids, why: describeForModel(cause, judged) }
  })
}

/**
 * A change to what the user owns: prepared in a scratch copy to show its exact diff, asked about in
 * the chat, and applied for real only on a yes (recorded as the user's change: they allowed this text).
 */
async function askThenApply(tool: ToolDef, args: unknown, ctx: ToolContext, cause: ProtectedTarget, deps: ChatLearningDeps): Promise<unknown> {
  const raw = (args ?? {}) as Record<string, unknown>
  const owner = ownerOf(tool.name, raw)
  const removes = (tool.name === 'memory' && raw.action === 'remove') || (tool.name === 'skill_manage' && raw.action === 'delete')
  const refusal = (why: string) => ({ success: false, error: `${why} Nothing was changed.`, ...(owner.skill ? { skill: owner.skill } : {}) })
  if (!ctx.approve) return refusal('This belongs to the user (pinned, or a skill they wrote or imported) and only they can allow changing it, which they cannot do from here.')
  const prepared = await inScratchCopy(tool, args, ctx, cause, deps, (staging, result, rowsBefore) => ({ result, changes: mergeStagedRows(staging.rows().slice(rowsBefore)) }))
  if (!isPrepared(prepared)) return prepared
  if (prepared.changes.length === 0) return prepared.result // the call failed in the copy: its error says why
  const request: ApprovalRequest = {
    kind: 'learn',
    tool: tool.name,
    summary: owner.skill ? `${removes ? 'Archive' : 'Change'} the skill "${owner.skill}"` : `${removes ? 'Remove' : 'Change'} a pinned entry of ${owner.store === 'user' ? 'USER.md' : owner.store === 'project' ? 'PROJECT.md' : 'MEMORY.md'}`,
    preview: prepared.changes.map((change) => createTwoFilesPatch(change.target, change.target, change.before ?? '', change.after ?? '', undefined, undefined, { context: 3 })).join('\n'),
    learn: { cause, ...owner, ...(removes ? { removes } : {}) },
    scopes: ['once']
  }
  if (!(await ctx.approve(request))) return refusal('The user did not allow this change to what is theirs.')
  return tool.run(args, { ...ctx, write: { ...ctx.write, source: 'user' } })
}

function ownerOf(name: string, args: Record<string, unknown>): { store?: MemoryTarget; skill?: string } {
  if (name === 'memory') return isMemoryTarget(args.target) ? { store: args.target } : {}
  return typeof args.name === 'string' ? { skill: args.name } : {}
}

function isPrepared(value: unknown): value is { result: unknown; changes: ReturnType<typeof mergeStagedRows> } {
  return typeof value === 'object' && value !== null && 'changes' in value && Array.isArray((value as { changes: unknown }).changes)
}

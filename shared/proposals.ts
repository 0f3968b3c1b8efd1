import { ledgerKinds, type LedgerKind, type LedgerMeta } from './ledger-names'
import type { ReviewReason } from './review-reasons'

/**
 * A change learning wants to make that waits for the user (the Inbox): what it would change, as a
 * ledger row that has not happened yet (kind, target, before, after), who proposed it and why, and
 * what the user decided. Approving applies it through the same locked stores and ledger; rejecting is
 * remembered, so later reviews do not propose it again. zod-free so the renderer can use it.
 */

export const proposalStates = ['pending', 'approved', 'edited', 'rejected', 'superseded'] as const
/**
 * `edited` = approved with the user's own text (`editedAfter`); `superseded` = it went stale and the user
 * had it reviewed again (unlike `rejected`, later reviews may propose the change anew).
 */
export type ProposalState = (typeof proposalStates)[number]

/** What made the proposal: a background review of a conversation, or a curation pass over the library. */
export const proposalOrigins = ['review', 'curation'] as const
export type ProposalOrigin = (typeof proposalOrigins)[number]

/**
 * Why it waits instead of being applied: the learning mode is `ask`; the skill was made or edited by
 * the user, came from an import, or is pinned; the memory entry is pinned; curation always asks;
 * Cairn never disables a skill on its own (`disable`); and another agent suggested it over MCP
 * (`suggested`, its `learning_propose` tool: never applied without the user). Another agent's memory
 * imported as a candidate always waits (`imported_memory`, e.g. Claude Code's memories). A sync files the other
 * device's side of a conflict it could not merge (`sync_conflict`) and what no longer fit after a merge
 * (`sync_overflow`). Whoever writes it, content that came from what Cairn read rather than from the user
 * (`untrusted_source`, see shared/provenance.ts), a skill change that adds something dangerous
 * (`dangerous_content`, shared/dangers.ts), and the chat's own learning while learning is off
 * (`learning_off`) always wait. A review's or curation's rewrite that cuts a skill down (more than about a
 * third of its lines, or a section) waits too (`skill_shrink`, with the figures in its rationale).
 */
export const proposalCauses = [
  'ask_mode',
  'user_skill',
  'imported_skill',
  'pinned_skill',
  'pinned_entry',
  'curation',
  'disable',
  'suggested',
  'import_overflow',
  'imported_memory',
  'sync_conflict',
  'sync_overflow',
  'untrusted_source',
  'dangerous_content',
  'learning_off',
  'skill_shrink'
] as const
export type ProposalCause = (typeof proposalCauses)[number]

/**
 * What a proposal changes: a ledger kind (what its approval is recorded as), or `skill.disable`, taking
 * a skill out of the index and the hints (a flag, its files untouched; `before` and `after` both hold
 * its SKILL.md as it was proposed, to show and to judge staleness by).
 */
export const proposalKinds = [...ledgerKinds, 'skill.disable'] as const
export type ProposalKind = (typeof proposalKinds)[number]

/** The ledger kind whose meta shape a proposal's `meta` takes (a disable carries a skill's). */
export function ledgerKindOf(kind: ProposalKind): LedgerKind {
  return kind === 'skill.disable' ? 'skill.edit' : kind
}

export interface Proposal {
  id: number
  /** Milliseconds since the epoch. */
  createdAt: number
  origin: ProposalOrigin
  reviewId: string | null
  sessionId: string | null
  /** The ledger kind the change will be recorded as (`skill.delete` = an archive), or `skill.disable`. */
  kind: ProposalKind
  /** Path relative to the data home, as on ledger rows (`memories/USER.md`, `skills/devops/deploy/SKILL.md`). */
  target: string
  /** The target's text when proposed (a memory entry, or a whole skill file); null for something new. */
  before: string | null
  /** The proposed text; null for a removal. */
  after: string | null
  meta: LedgerMeta
  /** Why the review ran (its reasons). */
  reasons: ReviewReason[]
  cause: ProposalCause
  /** The reviewer's own words on why (its closing line, or curation's explanation); null when it gave none. */
  rationale: string | null
  state: ProposalState
  decidedAt: number | null
  /** What was applied when the user edited the proposal before approving it. */
  editedAfter: string | null
  /** The ledger row its approval wrote. */
  ledgerId: number | null
  /**
   * For a pending proposal: its target no longer holds `before` (changed since it was proposed), so it
   * cannot be applied as is; it can be rejected, or reviewed again. Always false once decided.
   */
  stale: boolean
}

/** Why approving a proposal did not apply it, for the faces to word. */
export type ProposalErrorCode = 'not_found' | 'decided' | 'stale' | 'refused'

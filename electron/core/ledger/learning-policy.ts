import type { ContentDanger } from '../../../shared/dangers'
import type { Provenance } from '../../../shared/provenance'
import type { ProposalCause } from '../../../shared/proposals'

/**
 * One policy for every writer of memory and skills: the chat's own `memory` and `skill_manage`, the
 * background review, curation, other agents over MCP, imports and syncs. Each writer gathers the facts
 * (the learning mode, where the content came from, what it adds that is dangerous, whether it touches
 * what the user owns) and asks here what to do with the change; the answer is the same for all.
 */

/** Who is writing. */
export type LearnedWriter = 'chat' | 'review' | 'curation' | 'mcp' | 'import' | 'sync'

/** What the user owns that a change touches, as the proposal's cause names it. */
export type ProtectedTarget = Extract<ProposalCause, 'pinned_entry' | 'user_skill' | 'imported_skill' | 'pinned_skill'>

export interface LearnedWriteFacts {
  writer: LearnedWriter
  /** The learning mode in effect (`off` when learning is paused). */
  mode: 'auto' | 'ask' | 'off'
  /** Where the content came from (for a removal: where the request to remove came from). */
  provenance: Provenance
  /** What the change adds that could hurt if followed (skills). */
  dangers: readonly ContentDanger[]
  /** A pinned entry, or a skill the user wrote, imported or pinned; null when none. */
  protectedTarget: ProtectedTarget | null
}

export type LearnedWriteDecision =
  /** Write it (on the timeline, revertible). */
  | { action: 'apply' }
  /** Put it in the Inbox for the user to decide. */
  | { action: 'propose'; cause: ProposalCause }
  /** The chat asks the user now (an approval card, a terminal prompt); without a yes, nothing is written. */
  | { action: 'ask'; cause: ProtectedTarget }
  /** Not taken at all (learning is off for other agents). */
  | { action: 'refuse'; reason: 'learning_off' }

/**
 * The rules, first match wins:
 * 1. Another agent's write while learning is off is refused.
 * 2. Anything that adds something dangerous waits in the Inbox, whoever writes it, in every mode.
 * 3. A change to what the user owns, by a writer in the background (review, curation, another agent),
 *    waits in the Inbox under that reason.
 * 4. Content from what was read (a file, a page, a tool's result, another agent) waits in the Inbox in
 *    every mode; an import or a sync is the user bringing in their own data, so its source is no reason.
 * 5. A chat change to what the user owns asks there and then; an import or a sync applies.
 * 6. Curation always proposes; a review applies in Auto and proposes in Ask.
 * 7. The chat applies what the user said in every mode; its own ideas apply in Auto and wait otherwise.
 * 8. Imports and syncs apply (they handle their own overflow and conflicts).
 */
export function decideLearnedWrite(facts: LearnedWriteFacts): LearnedWriteDecision {
  const { writer, mode, provenance, dangers, protectedTarget } = facts
  if (writer === 'mcp' && mode === 'off') return { action: 'refuse', reason: 'learning_off' }
  if (dangers.length > 0) return { action: 'propose', cause: 'dangerous_content' }
  const bringsOwnData = writer === 'import' || writer === 'sync'
  const inBackground = writer === 'review' || writer === 'curation' || writer === 'mcp'
  if (protectedTarget && inBackground) return { action: 'propose', cause: protectedTarget }
  if (provenance.origin === 'read' && !bringsOwnData) return { action: 'propose', cause: 'untrusted_source' }
  if (protectedTarget) return writer === 'chat' ? { action: 'ask', cause: protectedTarget } : { action: 'apply' }
  switch (writer) {
    case 'curation':
      return { action: 'propose', cause: 'curation' }
    case 'review':
    case 'mcp':
      return mode === 'auto' ? { action: 'apply' } : { action: 'propose', cause: 'ask_mode' }
    case 'chat':
      if (provenance.origin === 'user' || mode === 'auto') return { action: 'apply' }
      return { action: 'propose', cause: mode === 'ask' ? 'ask_mode' : 'learning_off' }
    case 'import':
    case 'sync':
      return { action: 'apply' }
  }
}

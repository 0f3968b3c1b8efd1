import type { LearningMode } from '../../../shared/config'
import type { McpSource } from '../../../shared/ledger'
import type { ProposalCause } from '../../../shared/proposals'
import type { ServedHome } from './served-home'
import type { Provenance } from '../../../shared/provenance'
import { mcpClientOf } from '../../../shared/ledger-names'
import { decideLearnedWrite } from '../ledger/learning-policy'
import { skillChangeDangers } from '../security/skill-dangers'
import { touchesPinnedEntry } from '../staging/staging-protection'
import { ProposalStore } from '../ledger/proposals'
import { findEntry, trimmedText } from '../memory/entry-ops'
import { bringsUpHidden, HiddenEntries } from '../memory/hidden-entries'
import { messages } from '../memory/messages'
import { runMemoryTool, type MemoryToolResult } from '../memory/memory-tool'
import type { MemoryTarget } from '../memory/types'
import { NoProjectError } from '../memory/project-scope'
import { findSimilarEntry, type SimilarEntry, type SimilarityKind } from '../memory/similar-entries'
import { sanitizeEntries } from '../memory/snapshot'
import { newTurnState } from '../tools/types'
import { memoryFileName, memoryTextProblem, proposedSkillChange, type ProposedChange, type SkillSuggestion } from './outside-changes'

/** What an outside write answers: the memory tool's own result, a proposal made, or why not. */
export type OutsideResult =
  | MemoryToolResult
  | { success: true; proposed: true; proposal_id: number; message: string }
  | { success: true; proposed: false; message: string; duplicate?: true }
  | { success: false; error: string; matches?: string[] }
  | SimilarEntryRefusal

/** An outside add refused beside an entry that says nearly the same or the opposite: that entry, and the replace to make instead. */
interface SimilarEntryRefusal {
  success: false
  error: string
  similar_entry: string
  similarity: SimilarityKind
  suggested_call: { tool: 'memory_replace'; target: MemoryTarget; old_text: string; content: string }
}

/** A suggestion from `learning_propose`: a memory entry (added, or replacing the one `old_text` picks) or a whole SKILL.md. */
export type Suggestion = { kind: 'memory'; target: MemoryTarget; content: string; oldText: string | null } | ({ kind: 'skill' } & SkillSuggestion)

const OFF_MESSAGE =
  "Learning is off in Cairn, so it takes no memory or skill changes from other agents (nothing was saved). Reads still work; the user can turn learning on in Cairn's settings."

/** Why a change waits, as the outside agent is told. */
const WAITS_BECAUSE: Record<ProposalCause, string> = {
  ask_mode: "Cairn's learning mode is Ask, so",
  pinned_entry: 'The user pinned that entry, so',
  user_skill: 'The user wrote that skill, so',
  imported_skill: 'That skill was imported, so',
  pinned_skill: 'The user pinned that skill, so',
  curation: 'Curation results always wait, so',
  disable: 'Disabling a skill always waits, so',
  suggested: 'Suggestions always wait for the user, so',
  import_overflow: 'Imported entries over the limit wait for the user, so',
  imported_memory: "Another agent's imported memories wait for the user, so",
  sync_conflict: 'Conflicts between devices wait for the user, so',
  sync_overflow: 'Synced entries over the limit wait for the user, so',
  untrusted_source: "What another agent writes is not the user's own words, so",
  dangerous_content: 'The change adds something that could hurt if followed, so',
  learning_off: 'Learning is off, so',
  skill_shrink: 'The change cuts a skill down by a large part, so'
}

/**
 * Writes that other agents make over MCP, under the user's learning settings: `auto` applies a memory
 * write through the memory tool (on the timeline as `mcp:<client>`, revertible), `ask` turns it into an
 * Inbox proposal, `off` refuses it. Whatever the mode, a write touching an entry or skill the user
 * pinned or owns, and every `learning_propose`, becomes a proposal. Proposals carry the client's source
 * as their review id (`mcp:<client>`, no review run): the Inbox groups a client's suggestions under it,
 * and approving one records the change with that source.
 */
export class OutsideLearning {
  private readonly proposals: ProposalStore

  constructor(private readonly core: ServedHome) {
    this.proposals = new ProposalStore(core.db)
  }

  /** The mode learning is really in: off whenever learning is switched off. */
  mode(): LearningMode {
    const { learning } = this.core.config.get()
    return learning.enabled ? learning.mode : 'off'
  }

  /** Why `target` cannot be read or written at all: that store is turned off in Cairn's settings. */
  unavailable(target: MemoryTarget): string | null {
    const { memory } = this.core.config.get()
    if (target === 'memory' && !memory.enabled) return "Cairn's memory (MEMORY.md) is turned off in its settings."
    if (target === 'user' && !memory.userProfileEnabled) return "Cairn's user profile (USER.md) is turned off in its settings."
    // Another agent names no workspace Cairn knows, so no project memory is served.
    if (target === 'project') return new NoProjectError().message
    return null
  }

  async memoryAdd(source: McpSource, target: MemoryTarget, content: string): Promise<OutsideResult> {
    const refused = this.refusal(target)
    if (refused) return refused
    return this.write(source, target, content, null)
  }

  async memoryReplace(source: McpSource, target: MemoryTarget, oldText: string, content: string): Promise<OutsideResult> {
    const refused = this.refusal(target)
    if (refused) return refused
    return this.write(source, target, content, oldText)
  }

  /**
   * A memory write under the one learning policy (ledger/learning-policy.ts): what another agent writes
   * is not the user's own words (it may have read anything), so it waits in the Inbox, in every mode.
   */
  private write(source: McpSource, target: MemoryTarget, content: string, oldText: string | null): Promise<OutsideResult> | OutsideResult {
    const provenance = agentProvenance(source)
    const protectedTarget = oldText !== null && this.touchesPinned(target, oldText) ? 'pinned_entry' : null
    const decision = decideLearnedWrite({ writer: 'mcp', mode: this.mode(), provenance, dangers: [], protectedTarget })
    if (decision.action === 'refuse') return { success: false, error: OFF_MESSAGE }
    if (decision.action === 'propose' || decision.action === 'ask') return this.suggestEntry(source, target, content, oldText, decision.cause, null)
    return this.runMemory(source, oldText === null ? { action: 'add', target, content } : { action: 'replace', target, old_text: oldText, content })
  }

  /** `learning_propose`: always a proposal, never applied here, whatever the mode (except `off`, which takes nothing). */
  async propose(source: McpSource, suggestion: Suggestion, reason: string | null): Promise<OutsideResult> {
    if (this.mode() === 'off') return { success: false, error: OFF_MESSAGE }
    if (suggestion.kind === 'memory') {
      const refused = this.unavailable(suggestion.target)
      if (refused) return { success: false, error: refused }
      return this.suggestEntry(source, suggestion.target, suggestion.content, suggestion.oldText, 'suggested', reason)
    }
    const change = proposedSkillChange(this.core, suggestion)
    if (!change.ok) return change.result
    const before = change.change.before
    const after = change.change.after
    const dangers = after === null ? [] : skillChangeDangers(before, after)
    const meta = { ...change.change.meta, provenance: agentProvenance(source), ...(dangers.length ? { dangers } : {}) }
    return this.record(source, { ...change.change, meta }, dangers.length ? 'dangerous_content' : (change.protection ?? 'suggested'), reason)
  }

  private refusal(target: MemoryTarget): OutsideResult | null {
    if (this.mode() === 'off') return { success: false, error: OFF_MESSAGE }
    const unavailable = this.unavailable(target)
    return unavailable ? { success: false, error: unavailable } : null
  }

  private touchesPinned(target: MemoryTarget, oldText: string): boolean {
    return touchesPinnedEntry(this.core, target, [trimmedText(oldText)].filter(Boolean))
  }

  private runMemory(source: McpSource, args: Parameters<typeof runMemoryTool>[2]): Promise<MemoryToolResult> {
    const { memory } = this.core.config.get()
    const options = { enabled: memory.enabled, userProfileEnabled: memory.userProfileEnabled, audience: 'review' as const }
    return runMemoryTool(this.core.memory, options, args, { write: { source, provenance: agentProvenance(source) }, turn: newTurnState() })
  }

  /**
   * A proposal to add `content` to `target`, or (with `oldText`) to put it in place of the entry
   * `oldText` picks, with the memory tool's rules: the text is checked (empty, separator lines, the
   * threat scan) before anything is stored, and `oldText` must pick exactly one entry.
   */
  private suggestEntry(source: McpSource, target: MemoryTarget, content: string, oldText: string | null, cause: ProposalCause, reason: string | null): OutsideResult {
    const text = trimmedText(content)
    const problem = memoryTextProblem(text, target)
    if (problem) return { success: false, error: problem }
    const file = `memories/${memoryFileName(target)}`
    const { entries, usage } = this.core.memory.read(target)
    // One entry longer than the whole file allows could never be approved: refused now, not in the Inbox.
    if (text.length > usage.limit) {
      return { success: false, error: `That entry is ${text.length} characters; ${memoryFileName(target)} holds ${usage.limit} in all. Save one short, durable fact instead.` }
    }
    // A subject the user hid is refused before the checks below, which would name the entry; and an
    // outside agent never picks a hidden entry to replace, as it was never shown one.
    if (bringsUpHidden(this.core.memoryHidden, target, entries, [text])) return { success: false, error: messages.hiddenSubject }
    const shown = new HiddenEntries(this.core.memoryHidden).visible(target, entries)
    if (oldText === null) {
      if (entries.includes(text)) {
        this.confirm(target, text)
        return { success: true, proposed: false, duplicate: true, message: `${memoryFileName(target)} already holds that entry: nothing to do.` }
      }
      const similar = findSimilarEntry(entries, text)
      if (similar) return this.similarRefusal(target, similar, text)
      return this.record(source, { kind: 'memory.add', target: file, before: null, after: text, meta: { store: target, provenance: agentProvenance(source) } }, cause, reason)
    }
    const needle = trimmedText(oldText)
    if (!needle) return { success: false, error: 'old_text is empty: pass a short unique part of the entry to replace (memory_read lists them).' }
    const match = findEntry(shown, needle)
    if (match.kind === 'none') return { success: false, error: `No entry in ${memoryFileName(target)} contains "${needle}". Call memory_read to see the entries.` }
    if (match.kind === 'ambiguous') {
      return { success: false, error: `"${needle}" matches several entries in ${memoryFileName(target)}; pass more of the one you mean.`, matches: match.previews }
    }
    const before = shown[match.index]
    if (before === text) return { success: true, proposed: false, message: 'That entry already reads so: nothing to do.' }
    const pinned = this.core.memoryPins.isPinned(target, before)
    return this.record(source, { kind: 'memory.replace', target: file, before, after: text, meta: { store: target, provenance: agentProvenance(source) } }, pinned ? 'pinned_entry' : cause, reason)
  }

  /** The existing entry an add repeats in other words (confirmed by it) or contradicts, to replace instead of adding a second. */
  private similarRefusal(target: MemoryTarget, similar: SimilarEntry, text: string): SimilarEntryRefusal {
    if (similar.kind === 'near_duplicate') this.confirm(target, similar.entry)
    const [shown] = sanitizeEntries([similar.entry], memoryFileName(target))
    const says = similar.kind === 'near_duplicate' ? 'already says this in other words' : 'says otherwise'
    return {
      success: false,
      error: `Not added: an entry of ${memoryFileName(target)} ${says}: "${shown}". To change it, call memory_replace with old_text set to that entry (see suggested_call); if both hold, make its content one entry stating both.`,
      similar_entry: shown,
      similarity: similar.kind,
      suggested_call: { tool: 'memory_replace', target, old_text: shown, content: text }
    }
  }

  /** Another agent saved an entry that is already there: it counts as confirmed (losing that date is harmless). */
  private confirm(target: MemoryTarget, entry: string): void {
    try {
      this.core.memory.dating?.confirm(target, entry)
    } catch {
      // state.db busy: only the date is lost.
    }
  }

  /** Stores the proposal, unless the same change already waits or the user rejected it before. */
  private record(source: McpSource, change: ProposedChange, cause: ProposalCause, reason: string | null): OutsideResult {
    const waiting = this.proposals.findIdentical(change, ['pending'])
    if (waiting) return { success: true, proposed: true, proposal_id: waiting.id, message: `The same change already waits in Cairn's Inbox as proposal #${waiting.id}.` }
    if (this.proposals.findIdentical(change, ['rejected'])) {
      return { success: false, error: "The user already rejected exactly this change in Cairn's Inbox; do not suggest it again." }
    }
    const proposal = this.proposals.add({ origin: 'review', reviewId: source, sessionId: null, ...change, reasons: [], cause, rationale: reason })
    return {
      success: true,
      proposed: true,
      proposal_id: proposal.id,
      message: `${WAITS_BECAUSE[cause]} the change was not applied: it waits in Cairn's Inbox as proposal #${proposal.id} for the user to approve or reject.`
    }
  }
}

/** Where another agent's write comes from: that agent, over MCP (its own sources are not known here). */
function agentProvenance(source: McpSource): Provenance {
  return { origin: 'read', sources: [{ kind: 'agent', label: mcpClientOf(source) ?? source }] }
}

import type { ProposalCause } from '../../../shared/proposals'
import type { Ledger } from '../ledger/ledger'
import type { MemoryPins } from '../memory/memory-pins'
import { trimmedText } from '../memory/entry-ops'
import type { MemoryOperation, MemoryTarget } from '../memory/types'
import type { SkillStore, SkillSummary } from '../skills'
import type { SkillFlags } from '../skills/skill-flags'
import { skillOrigin } from '../skills/skill-items'

/** What tells a review which targets belong to the user: skill origins and flags, memory pins. */
export interface ProtectionDeps {
  ledger: Pick<Ledger, 'forSkill'>
  skills: Pick<SkillStore, 'getUsage'>
  skillFlags: Pick<SkillFlags, 'get'>
  memoryPins: Pick<MemoryPins, 'list'>
}

/** Why a skill may not be changed without asking, or null when a review may change it (Cairn made it). */
export type SkillProtection = Exclude<ProposalCause, 'ask_mode' | 'pinned_entry' | 'curation'> | 'read_only'

/**
 * A skill the user wrote or edited, one that came from an import, one the user pinned: a review only
 * ever proposes changes to these. A read-only root's skill (`read_only`) is never written at all.
 */
export function skillProtection(deps: ProtectionDeps, skill: SkillSummary): SkillProtection | null {
  const madeBy = skillOrigin(deps, skill)
  if (madeBy === 'external') return 'read_only'
  if (madeBy === 'user') return 'user_skill'
  if (madeBy === 'import') return 'imported_skill'
  return deps.skillFlags.get(skill.name).pinned ? 'pinned_skill' : null
}

/** The `old_text`s a memory call's replace and remove operations pick entries by (single or batch shape). */
export function memoryNeedles(args: Record<string, unknown>): string[] {
  const needles: string[] = []
  const pick = (action: unknown, oldText: unknown): void => {
    if ((action === 'replace' || action === 'remove') && trimmedText(oldText)) needles.push(trimmedText(oldText))
  }
  pick(args.action, args.old_text)
  if (Array.isArray(args.operations)) {
    for (const op of args.operations as MemoryOperation[]) pick(op?.action, op?.old_text)
  }
  return needles
}

/**
 * Whether any of `needles` could pick an entry the user pinned: one that is part of a pinned entry's
 * text, whatever else it matches now. Deliberately wider than the store's own match, because what a
 * needle picks changes as a batch runs (an earlier operation removes the other entry it matched) and
 * as the other writes of the same response land beside it.
 */
export function touchesPinnedEntry(deps: ProtectionDeps, target: MemoryTarget, needles: readonly string[]): boolean {
  if (needles.length === 0) return false
  const pinned = [...deps.memoryPins.list(target)]
  if (pinned.length === 0) return false
  return needles.some((needle) => pinned.some((entry) => entry.includes(needle)))
}

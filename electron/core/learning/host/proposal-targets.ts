import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { isMemoryKind, memoryStoreOfTarget, normalizeLedgerMeta, type SkillMeta } from '../../../../shared/ledger'
import { ledgerKindOf, type Proposal } from '../../../../shared/proposals'
import type { HomePaths } from '../../config/home'
import type { MemoryStore } from '../../memory'
import type { SkillStore } from '../../skills'
import type { SkillFlags } from '../../skills/skill-flags'
import { isMemoryTarget, type MemoryTarget } from '../../memory/types'
import { SKILL_FILE } from '../../skills/skill-paths'

/** What a proposal's target holds now: a memory file's entries, or a skill file's text (null = no file). */
export type TargetState = { memory: MemoryTarget; entries: string[] } | { file: string | null }

/** What a proposal's target is read from: the memory files, the skill index and flags, and the data home's files. */
export interface ProposalTargetSources {
  memory: Pick<MemoryStore, 'read' | 'forLedgerTarget'>
  skills: Pick<SkillStore, 'get'>
  skillFlags: Pick<SkillFlags, 'get'>
  paths: Pick<HomePaths, 'root'>
}

/** Reads targets once per use, so listing many proposals on one file reads it once. */
export class TargetReader {
  /** By ledger target (each project's PROJECT.md is its own file). */
  private readonly memory = new Map<string, string[]>()
  private readonly files = new Map<string, string | null>()

  constructor(private readonly core: ProposalTargetSources) {}

  stateOf(proposal: Proposal): TargetState {
    if (isMemoryKind(ledgerKindOf(proposal.kind))) {
      const store = memoryTargetOf(proposal)
      let entries = this.memory.get(proposal.target)
      if (!entries) {
        entries = this.core.memory.forLedgerTarget(proposal.target).read(store).entries
        this.memory.set(proposal.target, entries)
      }
      return { memory: store, entries }
    }
    if (!this.files.has(proposal.target)) this.files.set(proposal.target, readOrNull(join(this.core.paths.root, proposal.target)))
    return { file: this.files.get(proposal.target) ?? null }
  }

  /**
   * A pending proposal whose target no longer holds its `before` (changed since it was proposed) cannot
   * be applied as is. An add is never stale (an entry already there is simply approved); a new skill is
   * stale once a skill of that name exists anywhere.
   */
  isStale(proposal: Proposal): boolean {
    if (proposal.state !== 'pending') return false
    let state: TargetState
    try {
      state = this.stateOf(proposal)
    } catch {
      return true // unreadable: it cannot be checked, so it must not be applied blindly
    }
    if ('memory' in state) return proposal.kind !== 'memory.add' && !state.entries.includes(proposal.before ?? '')
    // A disable waits on the skill being there as proposed, and not disabled already.
    if (proposal.kind === 'skill.disable') return state.file !== proposal.before || this.core.skillFlags.get(skillMetaOf(proposal).skill).disabled
    if (proposal.before === null) {
      if (state.file !== null) return true
      return proposal.kind === 'skill.create' && this.core.skills.get(skillMetaOf(proposal).skill) !== null
    }
    return state.file !== proposal.before
  }
}

export function memoryTargetOf(proposal: Proposal): MemoryTarget {
  const meta = proposal.meta as { store?: unknown }
  return isMemoryTarget(meta.store) ? meta.store : memoryStoreOfTarget(proposal.target)
}

export function skillMetaOf(proposal: Proposal): SkillMeta {
  return normalizeLedgerMeta(ledgerKindOf(proposal.kind), proposal.target, proposal.meta) as SkillMeta
}

/** The path of a skill file proposal's file inside its skill folder (`SKILL.md`, `references/x.md`); null when it is not below it. */
export function fileInSkill(proposal: Proposal): string | null {
  const { skill, category } = skillMetaOf(proposal)
  const prefix = `skills/${category ? `${category}/` : ''}${skill}/`
  if (!proposal.target.startsWith(prefix)) return null
  const rest = proposal.target.slice(prefix.length)
  return rest === '' ? null : rest
}

export function isSkillFile(path: string | null): boolean {
  return path === SKILL_FILE
}

function readOrNull(path: string): string | null {
  try {
    return readFileSync(path, 'utf8')
  } catch {
    return null
  }
}

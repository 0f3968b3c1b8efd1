import { readFileSync } from 'node:fs'
import { dirname, join, relative, sep } from 'node:path'
import type { LedgerEntry } from '../../../shared/ledger'
import type { ProposalCause } from '../../../shared/proposals'
import { isMemoryTarget, type MemoryStore } from '../memory'
import type { MemoryLimits, MemoryTarget } from '../memory/types'
import type { SkillStore, SkillSummary } from '../skills'
import { fail, findSkillDirsOnDisk, type SkillFailure } from '../skills/skill-write-support'
import type { ToolDef } from '../tools/types'
import { checkSupportPath } from '../skills'
import { memoryNeedles, skillProtection, touchesPinnedEntry, type ProtectionDeps } from './staging-protection'
import { StagingStores } from './staging-stores'

/** The learning modes under which a review runs (`off` runs none). */
export type StagingMode = 'auto' | 'ask'

/** The learning stores a review writes: the data home's, or the scratch copy. */
export interface LearningStores {
  memory: MemoryStore
  skills: SkillStore
}

export interface ReviewStagingOptions {
  mode: StagingMode
  dataHome: string
  reviewId: string
  nativeBinding?: string
  memoryLimits: () => MemoryLimits
  real: LearningStores
  /** Builds the review's tools over the staging stores, exactly as over the real ones. */
  makeTools: (stores: LearningStores) => ReadonlyMap<string, ToolDef>
  protection: ProtectionDeps
  /** The scratch folder's prefix (see StagingStores). */
  scratchPrefix?: string
}

/** Where one call runs: the real tool, the staging tool (its change becomes a proposal), or a refusal. */
export type StagingChoice = { tool: ToolDef; staged: boolean } | { refusal: SkillFailure }

const PROPOSED_NOTE =
  'It waits in their Inbox for their approval. This call is complete: do not repeat or retry it, and do not try another way to make the same change.'

/**
 * Routes each call of a review between the real stores and a scratch copy. Under `ask` every write
 * goes to the copy; under `auto` only writes to what the user owns (a skill they wrote, edited, imported
 * or pinned; a pinned memory entry). Once a target (a memory file, a skill) is staged, every later call
 * on it, reads included, goes to the copy, so the review sees its own staged changes. `skills_list`
 * always lists the real store. The copy is made lazily, from the real file, when a target is first staged.
 */
export class ReviewStaging {
  private stores: StagingStores | null = null
  private tools: ReadonlyMap<string, ToolDef> | null = null
  private readonly memoryCauses = new Map<MemoryTarget, ProposalCause>()
  private readonly skillCauses = new Map<string, ProposalCause>()

  constructor(private readonly options: ReviewStagingOptions) {}

  /** For the review's rules: a skill staged in this run exists too (a create under `ask`). */
  readonly skills: Pick<SkillStore, 'get'> = {
    get: (name) => (this.skillCauses.has(name) ? this.stores?.skills.get(name) : null) ?? this.options.real.skills.get(name)
  }

  /**
   * Picks where the admitted `tool` runs for this call, staging its target first when needed.
   * `forced`: the change must be a proposal whatever the mode and target (its content came from what
   * was read, or it adds something dangerous: see ledger/learning-policy.ts).
   */
  choose(name: string, args: Record<string, unknown>, tool: ToolDef, forced?: ProposalCause): StagingChoice {
    if (name === 'memory') return this.chooseMemory(args, tool, forced)
    if (name === 'skill_view') return this.chooseView(args, tool)
    if (name === 'skill_manage') return this.chooseManage(args, tool, forced)
    return { tool, staged: false }
  }

  /** What the model gets back: a staged change says it was proposed, and that it is complete. */
  present(result: unknown, staged: boolean, rowsBefore: number): unknown {
    if (!staged || !isObject(result)) return result
    // Paths in the scratch copy are shown as the data home's: the model works on "the" skill.
    const stores = this.stores!
    const shown = Object.fromEntries(Object.entries(result).map(([key, value]) => [key, typeof value === 'string' ? stores.realPaths(value) : value]))
    if (result.success !== true || this.rows().length === rowsBefore) return shown
    return { ...shown, done: true, proposed: true, message: `Proposed to the user, not applied: ${String(result.message ?? '')} ${PROPOSED_NOTE}`.trim() }
  }

  /** Rows the staged changes would have written, in order. */
  rows(): LedgerEntry[] {
    return this.stores?.recorder.rows() ?? []
  }

  causeOfMemory(target: MemoryTarget): ProposalCause {
    return this.memoryCauses.get(target) ?? 'ask_mode'
  }

  causeOfSkill(name: string): ProposalCause {
    return this.skillCauses.get(name) ?? 'ask_mode'
  }

  /** Removes the scratch copy (if one was made). */
  close(): void {
    this.stores?.close()
    this.stores = null
  }

  private staging(): { stores: StagingStores; tools: ReadonlyMap<string, ToolDef> } {
    if (!this.stores) {
      const { dataHome, reviewId, nativeBinding, memoryLimits, scratchPrefix } = this.options
      this.stores = new StagingStores({ dataHome, reviewId, nativeBinding, memoryLimits, scratchPrefix, memoryDating: this.options.real.memory.dating, memoryHidden: this.options.real.memory.hiddenEntries, project: this.options.real.memory.project })
      this.tools = this.options.makeTools({ memory: this.stores.memory, skills: this.stores.skills })
    }
    return { stores: this.stores, tools: this.tools! }
  }

  private staged(name: string): StagingChoice {
    const tool = this.staging().tools.get(name)
    if (!tool) throw new Error(`The review's staging copy has no '${name}' tool.`)
    return { tool, staged: true }
  }

  private chooseMemory(args: Record<string, unknown>, tool: ToolDef, forced?: ProposalCause): StagingChoice {
    const target = args.target
    if (!isMemoryTarget(target)) return { tool, staged: false } // the tool explains the mistake
    // A search writes nothing and must see the archive, which a scratch copy has not: always the real store.
    if (args.action === 'search' && !(Array.isArray(args.operations) && args.operations.length > 0)) return { tool, staged: false }
    const isRead = args.action === 'read' && !(Array.isArray(args.operations) && args.operations.length > 0)
    const needles = memoryNeedles(args)
    if (this.memoryCauses.has(target)) {
      // A plain add beside a held-back change still lands under auto: what the user said is not held
      // back because something read went into the same file first. Reads, replaces and removes work
      // on the copy (they may pick what was staged).
      const cleanAdd = !isRead && needles.length === 0 && !forced && this.options.mode === 'auto'
      return cleanAdd ? { tool, staged: false } : this.staged('memory')
    }
    if (isRead) return { tool, staged: false }
    const cause: ProposalCause | null =
      forced ??
      (touchesPinnedEntry(this.options.protection, target, needles)
        ? 'pinned_entry'
        : this.options.mode === 'ask'
          ? 'ask_mode'
          : null)
    if (!cause) return { tool, staged: false }
    // From here the whole file goes to the copy, so the review's later reads and replaces see what it
    // staged (a replace of its own new text chains onto the proposal); under auto the file's later
    // replaces and removes in this review are held back too, as proposals, rather than split the file.
    this.staging().stores.copyMemory(target)
    this.memoryCauses.set(target, cause)
    return this.staged('memory')
  }

  private chooseView(args: Record<string, unknown>, tool: ToolDef): StagingChoice {
    if (typeof args.name !== 'string' || this.skillCauses.size === 0) return { tool, staged: false }
    const staged = this.stores?.skills.find(args.name)
    return staged && this.skillCauses.has(staged.name) ? this.staged('skill_view') : { tool, staged: false }
  }

  private chooseManage(args: Record<string, unknown>, tool: ToolDef, forced?: ProposalCause): StagingChoice {
    const name = args.name
    if (typeof name !== 'string') return { tool, staged: false }
    if (args.action === 'delete') this.copyAbsorber(args.absorbed_into)
    if (this.skillCauses.has(name)) {
      // Staged already because of the mode: a rewrite that cuts it down says so in the Inbox.
      if (forced === 'skill_shrink' && this.skillCauses.get(name) === 'ask_mode') this.skillCauses.set(name, forced)
      return this.staged('skill_manage')
    }
    const real = this.options.real.skills
    const skill = real.get(name)
    if (skill && !skill.readOnly) return this.stageExisting(skill, tool, args, forced)
    // A read-only root's skill: the real store refuses every write to it, as it always did.
    if (skill || (this.options.mode !== 'ask' && !forced) || args.action !== 'create') return { tool, staged: false }
    const existing = findSkillDirsOnDisk(real.skillsDir, name)[0]
    if (existing) {
      return { refusal: fail(`A skill named '${name}' already exists at ${existing}. Use action='patch' or action='edit' to change it, or choose another name.`) }
    }
    this.staging()
    this.skillCauses.set(name, forced ?? 'ask_mode')
    return this.staged('skill_manage')
  }

  /**
   * A staged delete names the skill that took its content (curation's merge): the copy must hold that
   * skill too, or the delete is refused there as naming a skill that does not exist.
   */
  private copyAbsorber(absorbedInto: unknown): void {
    const absorber = typeof absorbedInto === 'string' ? absorbedInto.trim() : ''
    if (!absorber || this.skillCauses.has(absorber)) return
    const skill = this.options.real.skills.get(absorber)
    if (!skill || skill.readOnly) return
    try {
      this.staging().stores.copySkill(skill, this.options.real.skills.skillsDir)
    } catch {
      // The delete is refused in the copy and says why.
    }
  }

  private stageExisting(skill: SkillSummary, tool: ToolDef, args: Record<string, unknown>, forced?: ProposalCause): StagingChoice {
    const protection = skillProtection(this.options.protection, skill)
    if (protection === 'read_only') return { tool, staged: false }
    const handEdited = protection === null && supportFileEditedByHand(this.options.dataHome, this.options.protection, skill, args)
    // What the user owns is named before a shrink (their skill waits either way); content causes come first.
    const owned = forced === 'skill_shrink' ? protection : null
    const cause: ProposalCause | null = owned ?? forced ?? protection ?? (handEdited ? 'user_skill' : this.options.mode === 'ask' ? 'ask_mode' : null)
    if (!cause) return { tool, staged: false }
    try {
      this.staging().stores.copySkill(skill, this.options.real.skills.skillsDir)
    } catch (error) {
      return { refusal: fail(`Could not prepare a proposal for skill '${skill.name}' (${(error as Error).message}); nothing was changed.`) }
    }
    this.skillCauses.set(skill.name, cause)
    return this.staged('skill_manage')
  }
}


/**
 * A supporting file of a skill Cairn made that the user changed or added by hand: its text differs from
 * what Cairn last wrote there, or Cairn never wrote it. Who made a skill is judged on its SKILL.md, so
 * this keeps a review from overwriting the user's notes beside it without asking.
 */
function supportFileEditedByHand(dataHome: string, deps: ProtectionDeps, skill: SkillSummary, args: Record<string, unknown>): boolean {
  const file = typeof args.file_path === 'string' ? args.file_path.trim() : ''
  const touchesFile = args.action === 'write_file' || args.action === 'remove_file' || args.action === 'patch'
  if (!touchesFile || !file || file === 'SKILL.md') return false
  const checked = checkSupportPath(file)
  if (!checked.ok) return false // the tool refuses the path itself
  const path = join(dirname(skill.path), checked.path)
  let current: string
  try {
    current = readFileSync(path, 'utf8')
  } catch {
    return false // a new file: nothing of the user's to overwrite
  }
  const target = relative(dataHome, path).split(sep).join('/')
  const last = deps.ledger.forSkill(skill.name).find((row) => row.target === target)
  return !last || last.after !== current
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null
}

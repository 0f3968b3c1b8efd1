import { createMemoryTool, type MemoryStore, type MemoryToolOptions } from '../../memory'
import { checkSupportPath, createSkillTools, type SkillStore } from '../../skills'
import { SKILL_FILE } from '../../skills/skill-paths'
import { viewedKey } from '../../skills/skill-view'
import type { ToolDef, TurnState } from '../../tools/types'
import type { CreateGate } from './review-create-gate'

/**
 * The background review's rules, all enforced here in code whatever the model is told: only the four
 * learning tools, list before create, a create only for a procedure worth repeating (review-create-gate.ts),
 * view before patch, never delete, descriptions without the chat's
 * urging (the 'review' audience), and views that are not use of a skill: the review reads skills to
 * judge them, which must not keep a stale skill looking fresh.
 */

/** The only tools a review has; anything else is refused, whatever the prompt says (`propose_disable` is added by the runner: disable-proposals.ts). */
export const REVIEW_TOOL_NAMES = ['memory', 'skills_list', 'skill_view', 'skill_manage', 'propose_disable'] as const

/** "memory, skills_list, skill_view and skill_manage", for messages and the prompt. */
export const REVIEW_TOOL_LIST = `${REVIEW_TOOL_NAMES.slice(0, -1).join(', ')} and ${REVIEW_TOOL_NAMES[REVIEW_TOOL_NAMES.length - 1]}`

export const REFUSED_TOOL_MESSAGE = `The background review may only use ${REVIEW_TOOL_LIST}.`

export const LIST_BEFORE_CREATE_MESSAGE =
  'Look before you create: call skills_list first and skill_view the closest existing skills. ' +
  "If one covers the same class of task, patch it with action='patch' instead; create only when nothing fits, then send this create again."

export const NO_DELETE_MESSAGE =
  "The background review does not delete skills or their files. If a skill is wrong or stale, skill_view it and fix it with action='patch'."

export const CURATION_NO_CREATE_MESSAGE =
  'Curation does not create skills: merge overlapping skills into the better one with patch or edit, then delete the other with absorbed_into.'

export const CURATION_DELETE_NEEDS_ABSORBER_MESSAGE =
  "Curation only archives a skill whose content another skill now holds: first patch or edit that skill, then send the delete with absorbed_into set to its name. Supporting files are not removed."

const DELETING_ACTIONS: ReadonlySet<unknown> = new Set(['delete', 'remove_file'])
/** Actions that change an existing skill, so the review must have read it first. */
const CHANGING_ACTIONS: ReadonlySet<unknown> = new Set(['edit', 'patch', 'write_file'])

export interface ReviewToolsOptions {
  memory: MemoryStore
  skills: SkillStore
  memorySettings: Pick<MemoryToolOptions, 'enabled' | 'userProfileEnabled'>
  allowSkillCreation: boolean
}

/** Exactly the whitelisted tools, made for the review: memory per the settings, skills with or without `create`. */
export function reviewTools(options: ReviewToolsOptions): Map<string, ToolDef> {
  const memory = createMemoryTool(options.memory, { ...options.memorySettings, audience: 'review' }) as ToolDef
  const skills = createSkillTools(options.skills, { allowCreate: options.allowSkillCreation, viewCountsAsUse: false, audience: 'review' })
  const allowed: readonly string[] = REVIEW_TOOL_NAMES
  return new Map([memory, ...skills].filter((tool) => allowed.includes(tool.name)).map((tool) => [tool.name, tool]))
}

export type ReviewRule = 'whitelist' | 'no-delete' | 'list-before-create' | 'one-off-create' | 'view-before-patch'

export interface ReviewRefusal {
  rule: ReviewRule
  /** What the model gets back instead of the tool's result. */
  result: { success: false; error: string } & Record<string, unknown>
}

export type ReviewAdmission = { tool: ToolDef } | { refusal: ReviewRefusal }

const refuse = (rule: ReviewRule, error: string, extra: Record<string, unknown> = {}): { refusal: ReviewRefusal } => ({
  refusal: { rule, result: { success: false, error, ...extra } }
})

/**
 * The rules over one review run. `turn` is the run's turn state: the skill tools record in it what
 * was viewed (and what the review created, which counts as read), and view-before-patch checks it.
 * `skills` tells a skill that does not exist (refused as not found) from one not yet viewed.
 */
export interface ReviewPolicyOptions {
  curation?: boolean
  /** The review was shown the whole skills index up front (review-skills-context.ts): that counts as skills_list. */
  listed?: boolean
  /** Whether a create is for a procedure worth repeating; absent: any create that passed the other rules. */
  createGate?: Pick<CreateGate, 'judge'>
}

export class ReviewPolicy {
  private listed: boolean

  /**
   * `curation`: a pass over the whole library (always proposals) may archive a skill another now
   * holds (delete with `absorbed_into`, after viewing both) and may not create one.
   */
  constructor(
    private readonly tools: ReadonlyMap<string, ToolDef>,
    private readonly turn: TurnState,
    private readonly skills: Pick<SkillStore, 'get'>,
    private readonly options: ReviewPolicyOptions = {}
  ) {
    this.listed = options.listed === true
  }

  /** The tool to run for a call with the model's (unvalidated) arguments, or why it is refused. */
  admit(name: string, args: Record<string, unknown>): ReviewAdmission {
    const tool = this.tools.get(name)
    if (!tool) return refuse('whitelist', REFUSED_TOOL_MESSAGE)
    if (name !== 'skill_manage') return { tool }
    const action = args.action
    if (this.options.curation) {
      const ruling = this.curationRuling(args)
      if (ruling) return ruling
    } else if (DELETING_ACTIONS.has(action)) return refuse('no-delete', NO_DELETE_MESSAGE)
    if (action === 'create' && !this.listed) return refuse('list-before-create', LIST_BEFORE_CREATE_MESSAGE)
    if (action === 'create' && this.options.createGate) {
      const judged = this.options.createGate.judge(args)
      if ('refusal' in judged) return refuse('one-off-create', judged.refusal)
    }
    if (CHANGING_ACTIONS.has(action) && typeof args.name === 'string') {
      const unread = this.unreadTarget(args.name, action === 'patch' ? args.file_path : undefined)
      if (unread) return unread
    }
    // Anything malformed is left to the tool, whose schema and checks refuse it with a precise error.
    return { tool }
  }

  /** Curation's own rules for skill_manage: no create, no file removal, a delete only into a skill it has read. */
  private curationRuling(args: Record<string, unknown>): { refusal: ReviewRefusal } | null {
    const action = args.action
    if (action === 'create') return refuse('no-delete', CURATION_NO_CREATE_MESSAGE)
    if (action === 'remove_file') return refuse('no-delete', CURATION_DELETE_NEEDS_ABSORBER_MESSAGE)
    if (action !== 'delete') return null
    const absorber = typeof args.absorbed_into === 'string' ? args.absorbed_into.trim() : ''
    if (!absorber || typeof args.name !== 'string') return refuse('no-delete', CURATION_DELETE_NEEDS_ABSORBER_MESSAGE)
    return this.unreadTarget(args.name, undefined) ?? this.unreadTarget(absorber, undefined)
  }

  /** Reports a call that ran: a successful skills_list opens the way to create. */
  ran(name: string, result: unknown): void {
    if (name === 'skills_list' && succeeded(result)) this.listed = true
  }

  /**
   * The refusal for changing skill `name` (or its supporting file) without having viewed it in this run,
   * or for changing a skill that does not exist: it cannot be viewed, so "view it first" would mislead.
   */
  private unreadTarget(name: string, filePath: unknown): { refusal: ReviewRefusal } | null {
    if (!this.skills.get(name)) {
      return refuse('view-before-patch', `Skill '${name}' not found. Call skills_list to see the available skills and use the exact name it shows.`)
    }
    const viewed = this.turn.viewedSkills
    if (!viewed.has(viewedKey(name))) {
      return refuse(
        'view-before-patch',
        `Read before you patch: view skill '${name}' in this turn before changing it. ` +
          `Call skill_view(name='${name}') first, then retry with text copied exactly from it.`,
        { _read_before_write_required: true }
      )
    }
    const file = supportingFile(filePath)
    if (file && !viewed.has(viewedKey(name, file))) {
      return refuse(
        'view-before-patch',
        `Read before you patch: view '${file}' of skill '${name}' in this turn before changing it. ` +
          `Call skill_view(name='${name}', file_path='${file}') first, then retry with text copied exactly from it.`,
        { _read_before_write_required: true }
      )
    }
    return null
  }
}

/** The supporting file a patch targets, normalised as the skill tools record views; null for SKILL.md or an invalid path. */
function supportingFile(filePath: unknown): string | null {
  const raw = typeof filePath === 'string' ? filePath.trim() : ''
  if (!raw || raw === SKILL_FILE) return null
  const checked = checkSupportPath(raw)
  return checked.ok ? checked.path : null
}

function succeeded(result: unknown): boolean {
  return !(typeof result === 'object' && result !== null && (result as { success?: unknown }).success === false)
}

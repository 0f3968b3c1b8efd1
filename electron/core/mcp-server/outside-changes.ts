import { readFileSync } from 'node:fs'
import type { LedgerKind, LedgerMeta } from '../../../shared/ledger'
import type { ProposalCause } from '../../../shared/proposals'
import type { ServedHome } from './served-home'
import { skillProtection } from '../staging/staging-protection'
import { separatorLineError } from '../memory/entry-ops'
import type { MemoryTarget } from '../memory/types'
import { scanForThreats, threatMessage } from '../security/threats'
import { specNameError } from '../skills/agent-skills-spec'
import { contentSizeError, validateSkillContent } from '../skills/skill-file'
import { normalizeCategory, toPosixRelative, validateCategory, validateNewSkillName } from '../skills/skill-paths'
import { scanSkillWrite } from '../skills/skill-write-support'

/** A change an outside agent wants, as a proposal holds it (before its id, cause and reasons). */
export interface ProposedChange {
  kind: LedgerKind
  target: string
  before: string | null
  after: string | null
  meta: Partial<LedgerMeta>
}

/** A whole SKILL.md an outside agent suggests: a new skill, or new text for an existing one. */
export interface SkillSuggestion {
  name: string
  content: string
  /** For a new skill: one folder to file it under. */
  category: string | null
}

const MEMORY_FILES: Record<MemoryTarget, string> = { memory: 'MEMORY.md', user: 'USER.md', project: 'PROJECT.md' }

export function memoryFileName(target: MemoryTarget): string {
  return MEMORY_FILES[target]
}

/** Why `text` (trimmed) cannot become a memory entry: the checks the memory store makes before any write. */
export function memoryTextProblem(text: string, target: MemoryTarget): string | null {
  if (!text) return 'content is empty: pass the entry text to save.'
  return separatorLineError(text, memoryFileName(target)) ?? threatMessage(scanForThreats(text, 'strict'))
}

export type SkillChangeCheck =
  | { ok: true; change: ProposedChange; protection: Exclude<ProposalCause, 'ask_mode'> | null }
  | { ok: false; result: { success: false; error: string } }

/**
 * The proposal a suggested SKILL.md makes, checked as a skill write would be (the name, the category,
 * the Agent Skills front matter, the threat scan), so a suggestion the store would refuse is refused
 * now rather than failing when the user approves it. An existing skill's text is replaced whole
 * (`skill.edit`); a read-only one is never changed.
 */
export function proposedSkillChange(core: Pick<ServedHome, 'skills' | 'paths' | 'ledger' | 'skillFlags' | 'memoryPins'>, suggestion: SkillSuggestion): SkillChangeCheck {
  const refuse = (error: string): SkillChangeCheck => ({ ok: false, result: { success: false, error } })
  const existing = core.skills.get(suggestion.name)
  const nameProblem = existing ? null : (validateNewSkillName(suggestion.name) ?? specNameError(suggestion.name))
  const invalid =
    nameProblem ?? (existing ? null : validateCategory(suggestion.category)) ?? contentSizeError('SKILL.md', suggestion.content) ?? validateSkillContent(suggestion.content, suggestion.name)
  if (invalid) return refuse(invalid)
  if (existing?.readOnly) return refuse(`Skill '${existing.name}' lives in a read-only folder (${existing.root}); Cairn never changes skills there.`)
  let before: string | null = null
  if (existing) {
    try {
      before = readFileSync(existing.path, 'utf8')
    } catch (error) {
      return refuse(`Skill '${existing.name}' could not be read: ${(error as Error).message}`)
    }
    if (before === suggestion.content) return refuse(`Skill '${existing.name}' already reads exactly so: there is nothing to propose.`)
  }
  const scan = scanSkillWrite(suggestion.content, before)
  if (scan.blocked) return refuse(scan.blocked.error)
  if (existing) {
    const protection = skillProtection(core, existing)
    return {
      ok: true,
      change: { kind: 'skill.edit', target: toPosixRelative(core.paths.root, existing.path), before, after: suggestion.content, meta: { skill: existing.name, category: existing.category } },
      protection: protection === 'read_only' ? null : protection
    }
  }
  const category = normalizeCategory(suggestion.category)
  const target = ['skills', ...(category ? [category] : []), suggestion.name, 'SKILL.md'].join('/')
  return { ok: true, change: { kind: 'skill.create', target, before: null, after: suggestion.content, meta: { skill: suggestion.name, category } }, protection: null }
}

import { ellipsize } from '../text/cut'
import { estimateTokens } from '../provider/tokens'
import type { SkillFlags } from '../skills/skill-flags'
import { successScore } from '../skills/skill-stats'
import { DESCRIPTION_CHARS } from '../skills/skill-trigger'
import type { SkillStore } from '../skills'

export interface IndexSkill {
  name: string
  description: string
  category: string | null
  readOnly?: boolean
  /** Views and uses. */
  useCount?: number
  lastUsedAt?: number | null
  /** Verdicts of the reviews on the times it was followed. */
  successCount?: number
  failureCount?: number
  /** The user turned it off: it is left out of the index and the hints. */
  disabled?: boolean
  /** MCP tools the skill relies on (its `metadata.mcp-tools`). */
  mcpTools?: string[]
  /** Of those, the ones this conversation does not have (set by {@link markMissingMcpTools}). */
  missingMcpTools?: string[]
}

/** What the catalogue is read from. */
export interface SkillCatalogueSources {
  skills: Pick<SkillStore, 'list' | 'getUsage'>
  skillFlags: Pick<SkillFlags, 'disabled'>
}

/** The catalogue of skills with their usage and verdicts, for the index and for per-message hints. */
export function indexSkills({ skills, skillFlags }: SkillCatalogueSources): IndexSkill[] {
  const disabled = skillFlags.disabled()
  return skills.list().map((skill) => {
    const usage = skills.getUsage(skill.name)
    return {
      name: skill.name,
      description: skill.description,
      category: skill.category,
      readOnly: skill.readOnly,
      useCount: (usage?.useCount ?? 0) + (usage?.viewCount ?? 0),
      lastUsedAt: usage?.lastUsedAt ?? usage?.lastViewedAt ?? null,
      successCount: usage?.successCount ?? 0,
      failureCount: usage?.failureCount ?? 0,
      ...(disabled.has(skill.name) ? { disabled: true } : {}),
      ...(skill.mcpTools ? { mcpTools: skill.mcpTools } : {})
    }
  })
}

/**
 * Marks the skills that rely on MCP tools this conversation does not have. `available` holds each
 * tool it has as `server/tool` and as its exposed name; a skill may name either.
 */
export function markMissingMcpTools(catalogue: IndexSkill[], available: ReadonlySet<string>): IndexSkill[] {
  return catalogue.map((skill) => {
    const missing = (skill.mcpTools ?? []).filter((tool) => !available.has(tool))
    return missing.length ? { ...skill, missingMcpTools: missing } : skill
  })
}

/** What the index adds after a skill whose MCP tools are missing, so the model does not follow it blindly. */
function needs(skill: IndexSkill): string {
  const missing = skill.missingMcpTools ?? []
  if (!missing.length) return ''
  return ` [needs MCP tool${missing.length === 1 ? '' : 's'} ${missing.join(', ')}, not connected]`
}

/**
 * The order in which skills keep their place when not all of them fit: how well they work (see
 * successScore: a skill that keeps failing drops, one never judged sits in the middle), then the most
 * recently used, then the most used, then by name. Only figures decide it, never the clock, so the same
 * catalogue always renders the same index (the prompt prefix cache depends on it).
 */
export function byRank(a: IndexSkill, b: IndexSkill): number {
  return (
    successScore(b.successCount ?? 0, b.failureCount ?? 0) - successScore(a.successCount ?? 0, a.failureCount ?? 0) ||
    (b.lastUsedAt ?? 0) - (a.lastUsedAt ?? 0) ||
    (b.useCount ?? 0) - (a.useCount ?? 0) ||
    compareNames(a.name, b.name)
  )
}

/** Code-point order: unlike localeCompare it does not depend on the machine's locale. */
function compareNames(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0
}

export type SkillsIndexMode = 'full' | 'names' | 'categories'

export interface SkillsIndex {
  text: string
  tokens: number
  mode: SkillsIndexMode
  /** Skills named somewhere in the index. */
  listed: number
}

const NO_CATEGORY = 'general'

/**
 * The compact skill catalogue for the system prompt, held under `budgetTokens` however many skills
 * exist, disabled ones left out. Degrades in steps: every skill with a short description; then names
 * by category with descriptions kept for the best ranked ({@link byRank}); then category summaries plus
 * the best ranked skills (folding nested categories, then cutting the category list, when even the
 * summaries do not fit).
 */
export function renderSkillsIndex(catalogue: IndexSkill[], budgetTokens: number): SkillsIndex {
  const skills = catalogue.filter((skill) => !skill.disabled)
  if (skills.length === 0) return { text: '', tokens: 0, mode: 'full', listed: 0 }
  const groups = groupByCategory(skills)
  const ranked = [...skills].sort(byRank)

  const full = render(groups, () => true, () => true)
  if (estimateTokens(full) <= budgetTokens) return result(full, 'full', skills.length)

  // Names for everything, then descriptions for the most used while they fit.
  const described = new Set<string>()
  let names = render(groups, () => true, (s) => described.has(s.name))
  if (estimateTokens(names) <= budgetTokens) {
    for (const skill of ranked) {
      described.add(skill.name)
      const next = render(groups, () => true, (s) => described.has(s.name))
      if (estimateTokens(next) > budgetTokens) {
        described.delete(skill.name)
        break
      }
      names = next
    }
    return result(names, 'names', skills.length)
  }

  // Category summaries plus the most used skills, added while they fit. Too many categories: nested
  // ones fold into their top folder; still too many, the list of categories itself is cut.
  for (const grouping of [groups, groupByCategory(skills, topCategory)]) {
    if (estimateTokens(renderCategories(grouping, new Set())) > budgetTokens) continue
    const shown = new Set<string>()
    let text = renderCategories(grouping, shown)
    for (const skill of ranked) {
      shown.add(skill.name)
      const next = renderCategories(grouping, shown)
      if (estimateTokens(next) > budgetTokens) {
        shown.delete(skill.name)
        break
      }
      text = next
    }
    return result(text, 'categories', shown.size)
  }
  return renderCut(groupByCategory(skills, topCategory), ranked, budgetTokens)
}

/** The last resort: the best ranked skills that were used (up to half the budget), then as many categories as still fit. */
function renderCut(groups: Map<string, IndexSkill[]>, ranked: IndexSkill[], budgetTokens: number): SkillsIndex {
  const lines: string[] = []
  let used = estimateTokens(FOOTER) + 30 // room for the "more categories" line
  let listed = 0
  for (const skill of ranked) {
    if (!skill.useCount) continue
    const line = `  - ${skill.name}${needs(skill)}: ${shorten(skill.description)}`
    if (used + estimateTokens(line) + 1 > budgetTokens / 2) break
    if (!listed) lines.push('Most used:')
    lines.push(line)
    used += estimateTokens(line) + 1
    listed++
  }
  let omitted = 0
  for (const [category, members] of groups) {
    const line = `${category}: ${members.length} skill${members.length === 1 ? '' : 's'}`
    if (omitted || used + estimateTokens(line) + 1 > budgetTokens) {
      omitted++
      continue
    }
    used += estimateTokens(line) + 1 // per-line rounding only overestimates
    lines.push(line)
  }
  if (omitted) lines.push(`(${omitted} more categor${omitted === 1 ? 'y' : 'ies'} not shown.)`)
  lines.push(FOOTER)
  return result(lines.join('\n'), 'categories', listed)
}

function result(text: string, mode: SkillsIndexMode, listed: number): SkillsIndex {
  return { text, tokens: estimateTokens(text), mode, listed }
}

function groupByCategory(skills: IndexSkill[], keyOf: (skill: IndexSkill) => string = (s) => s.category ?? NO_CATEGORY): Map<string, IndexSkill[]> {
  const groups = new Map<string, IndexSkill[]>()
  for (const skill of [...skills].sort((a, b) => a.name.localeCompare(b.name))) {
    const key = keyOf(skill)
    groups.set(key, [...(groups.get(key) ?? []), skill])
  }
  return new Map([...groups.entries()].sort(([a], [b]) => a.localeCompare(b)))
}

function topCategory(skill: IndexSkill): string {
  return (skill.category ?? NO_CATEGORY).split('/')[0]
}

function render(
  groups: Map<string, IndexSkill[]>,
  include: (skill: IndexSkill) => boolean,
  withDescription: (skill: IndexSkill) => boolean
): string {
  const lines: string[] = []
  for (const [category, members] of groups) {
    const visible = members.filter(include)
    if (!visible.length) continue
    const plain = visible.filter((s) => !withDescription(s)).map((s) => s.name + needs(s))
    const detailed = visible.filter(withDescription)
    lines.push(`${category}:${plain.length ? ' ' + plain.join(', ') : ''}`)
    for (const skill of detailed) lines.push(`  - ${skill.name}${needs(skill)}: ${shorten(skill.description)}`)
  }
  return lines.join('\n')
}

const FOOTER = '(Too many skills to list here: call skills_list with a category to see the rest.)'

function renderCategories(groups: Map<string, IndexSkill[]>, shown: Set<string>): string {
  const lines: string[] = []
  for (const [category, members] of groups) {
    const visible = members.filter((s) => shown.has(s.name))
    const hidden = members.length - visible.length
    lines.push(`${category}: ${members.length} skill${members.length === 1 ? '' : 's'}${hidden && visible.length ? `, ${hidden} not listed` : ''}`)
    for (const skill of visible) lines.push(`  - ${skill.name}${needs(skill)}: ${shorten(skill.description)}`)
  }
  lines.push(FOOTER)
  return lines.join('\n')
}

function shorten(text: string): string {
  return ellipsize(whenFirst(text), DESCRIPTION_CHARS)
}

/** The sentence that says when to use the skill goes first, so a cut never drops it. */
function whenFirst(text: string): string {
  const at = text.search(/(?<=[.!?]\s+)Use (?:it |this skill )?when\b/i)
  return at > 0 ? `${text.slice(at).trim()} ${text.slice(0, at).trim()}` : text
}

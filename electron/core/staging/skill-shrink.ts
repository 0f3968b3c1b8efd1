import { readFileSync } from 'node:fs'
import type { SkillStore } from '../skills'
import { fuzzyReplace } from '../text/fuzzy-replace'

/**
 * The shrink guard for skills, like memory's guard against condensing away a store: a review's or
 * curation's whole-file `edit` that drops more than about a third of a skill's lines, or a section (a
 * markdown heading), is held back as a proposal with the figures; a `patch` only when it removes a section.
 */

/** Share of its lines an edit may drop before it is held back. */
export const SHRINK_SHARE = 1 / 3
/** Fewer dropped lines than this never count as a shrink (tidying a six-line skill is fine). */
const MIN_DROPPED_LINES = 3

export interface SkillShrink {
  /** Non-blank lines before and after. */
  linesBefore: number
  linesAfter: number
  /** Headings of the sections the change removes, in order. */
  sectionsDropped: string[]
}

/** How `after` shrinks `before`, or null when it keeps enough (at most a third of its lines, every section). */
export function skillShrink(before: string, after: string, options: { sectionsOnly?: boolean } = {}): SkillShrink | null {
  const figures = shrinkFigures(before, after)
  const dropped = figures.linesBefore - figures.linesAfter
  const tooShort = !options.sectionsOnly && dropped >= MIN_DROPPED_LINES && dropped > figures.linesBefore * SHRINK_SHARE
  return tooShort || figures.sectionsDropped.length > 0 ? figures : null
}

/** The lines before and after and the sections `after` no longer has, whether or not that is a shrink. */
export function shrinkFigures(before: string, after: string): SkillShrink {
  const kept = new Set(headings(after).map(headingKey))
  return {
    linesBefore: contentLines(before),
    linesAfter: contentLines(after),
    sectionsDropped: headings(before).filter((heading) => !kept.has(headingKey(heading)))
  }
}

/**
 * The shrink a `skill_manage` call would make to a skill's SKILL.md (`skills.get` finds a staged copy
 * first, when there is one); null for any other call or when it keeps enough. With `baselines` (one map
 * per review), a skill is judged against its text when the review first touched it, so a run of edits
 * that each drop a little (33 → 22 → 15 → 10 lines) cannot cut it down step by step.
 */
export function shrinkOfCall(name: string, args: Record<string, unknown>, skills: Pick<SkillStore, 'get'>, baselines?: Map<string, string>): SkillShrink | null {
  if (name !== 'skill_manage' || typeof args.name !== 'string') return null
  const filePath = typeof args.file_path === 'string' ? args.file_path.trim() : ''
  if (filePath && filePath !== 'SKILL.md') return null
  const current = currentText(skills, args.name)
  if (current === null) return null
  if (baselines && !baselines.has(args.name)) baselines.set(args.name, current)
  const baseline = baselines?.get(args.name) ?? current
  if (args.action === 'edit' && typeof args.content === 'string') return skillShrink(baseline, args.content)
  if (args.action !== 'patch' || typeof args.old_string !== 'string' || typeof args.new_string !== 'string' || !args.old_string) return null
  // Matched as the tool will match it (whitespace and quotes forgiven), so a loose old_string is guarded too.
  const patched = fuzzyReplace(current, args.old_string, args.new_string, args.replace_all === true)
  if (!patched.ok) return null // the tool refuses it as well
  return skillShrink(baseline, patched.content, { sectionsOnly: true })
}

function currentText(skills: Pick<SkillStore, 'get'>, name: string): string | null {
  const skill = skills.get(name)
  if (!skill || skill.readOnly) return null
  try {
    return readFileSync(skill.path, 'utf8')
  } catch {
    return null
  }
}

function contentLines(text: string): number {
  return text.split('\n').filter((line) => line.trim()).length
}

/**
 * The section headings: markdown headings outside fenced code (a `# comment` in a shell block is no
 * section), leaving out the first top-level one, the skill's title (renaming it drops nothing).
 */
function headings(text: string): string[] {
  const found: string[] = []
  let fenced = false
  let titled = false
  for (const line of text.split('\n')) {
    if (/^\s*(```|~~~)/.test(line)) fenced = !fenced
    else if (!fenced) {
      const match = /^(#{1,6})\s+(.+?)\s*#*\s*$/.exec(line)
      if (!match) continue
      if (match[1].length === 1 && !titled) titled = true
      else found.push(match[2])
    }
  }
  return found
}

function headingKey(heading: string): string {
  return heading.toLowerCase().replace(/\s+/g, ' ').trim()
}

import { statSync } from 'node:fs'
import { basename, dirname, extname, join } from 'node:path'
import type { TurnState } from '../tools/types'
import { groupFiles, listSkillFiles, readSkillFile } from './skill-dir-files'
import type { SkillIndex, SkillSummary } from './skill-index'
import { SKILL_FILE, isInside, lookupNameError, realpathOrNull, viewPathError } from './skill-paths'
import type { SkillUsageStore } from './skill-usage'
import { fail, type SkillResult } from './skill-write-support'

export interface SkillViewDeps {
  index: SkillIndex
  usage: Pick<SkillUsageStore, 'recordView'>
  /** The user disabled the skill: it stays readable, and the result says it is off. */
  isDisabled?: (name: string) => boolean
}

/** What a view of a disabled skill adds to its result, so the model does not take it up unasked. */
function disabledNote(deps: SkillViewDeps, name: string): Record<string, unknown> {
  if (!deps.isDisabled?.(name)) return {}
  return {
    disabled: true,
    disabled_note: `The user disabled skill '${name}': it is left out of the skills index. Follow it only if the user asks for it by name.`
  }
}

/** How `TurnState.viewedSkills` records a read: the skill's name, or `name/file` for one of its files. */
export function viewedKey(name: string, filePath?: string): string {
  return filePath ? `${name}/${filePath}` : name
}

/** Finds a skill by folder name, `category/name`, or (for skills written elsewhere) its front-matter name. */
export function resolveSkill(index: SkillIndex, name: string): SkillSummary | null {
  const direct = index.get(name)
  if (direct) return direct
  if (name.includes('/')) {
    const parts = name.split('/').filter(Boolean)
    const skill = index.get(parts[parts.length - 1])
    if (skill && (skill.category ?? '') === parts.slice(0, -1).join('/')) return skill
  }
  return index.getByFrontmatterName(name)
}

function editDistance(a: string, b: string): number {
  let previous = Array.from({ length: b.length + 1 }, (_, i) => i)
  for (let i = 1; i <= a.length; i++) {
    const current = [i]
    for (let j = 1; j <= b.length; j++) {
      current[j] = Math.min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (a[i - 1] === b[j - 1] ? 0 : 1))
    }
    previous = current
  }
  return previous[b.length]
}

/** Up to `limit` skill names, closest to `query` first (substring matches, then edit distance). */
export function closestNames(names: string[], query: string, limit = 20): string[] {
  const q = query.toLowerCase()
  const score = (name: string): number => {
    const distance = editDistance(q, name) / Math.max(q.length, name.length, 1)
    return name.includes(q) || q.includes(name) ? distance - 1 : distance
  }
  return [...names].sort((a, b) => score(a) - score(b) || (a < b ? -1 : 1)).slice(0, limit)
}

function notFound(index: SkillIndex, name: string): SkillResult {
  const closest = closestNames(index.list().map((skill) => skill.name), name)
  return fail(
    `Skill '${name}' not found.` + (closest.length ? ` Closest names: ${closest.slice(0, 5).join(', ')}.` : ' There are no skills yet.') +
      ' Call skill_view with one of available_skills, or skills_list to browse by category.',
    { available_skills: closest }
  )
}

/** Tier 2 (`file_path` omitted: the whole SKILL.md) or tier 3 (one file of the skill) of progressive disclosure. */
export function viewSkill(deps: SkillViewDeps, name: string, filePath: string | null | undefined, turn: TurnState | null): SkillResult {
  const nameError = typeof name === 'string' ? lookupNameError(name) : 'Skill name is required.'
  if (nameError) return fail(nameError)
  const skill = resolveSkill(deps.index, name)
  if (!skill) return notFound(deps.index, name)
  const dir = dirname(skill.path)
  if (filePath !== undefined && filePath !== null && filePath.trim() !== '' && filePath.trim() !== SKILL_FILE) {
    return viewFile(deps, skill, dir, filePath.trim(), turn)
  }
  if (filePath !== undefined && filePath !== null && filePath.trim() === '') return fail(viewPathError('')!)
  const read = readSkillFile(skill.path)
  if (read.kind !== 'text') {
    deps.index.refreshSkillFile(skill.path)
    return fail(`Skill '${skill.name}' could not be read from ${skill.path} (it was moved or deleted). Call skills_list to see what is there now.`)
  }
  turn?.viewedSkills.add(viewedKey(skill.name))
  deps.usage.recordView(skill.name)
  const files = listSkillFiles(dir)
  return {
    success: true,
    name: skill.name,
    description: skill.description,
    category: skill.category,
    content: read.text,
    path: skill.path,
    linked_files: groupFiles(files),
    readOnly: skill.readOnly,
    ...(skill.warnings.length ? { warnings: skill.warnings } : {}),
    ...(files.length ? { usage_hint: `To read a linked file: skill_view(name='${skill.name}', file_path='${files[0]}')` } : {}),
    ...disabledNote(deps, skill.name),
    message: `Loaded skill '${skill.name}'.`
  }
}

function viewFile(deps: SkillViewDeps, skill: SkillSummary, dir: string, filePath: string, turn: TurnState | null): SkillResult {
  const pathError = viewPathError(filePath)
  if (pathError) return fail(pathError)
  const rel = filePath.split(/[\\/]+/).filter((part) => part !== '' && part !== '.').join('/')
  const path = join(dir, ...rel.split('/'))
  const realDir = realpathOrNull(dir) ?? dir
  const real = realpathOrNull(path)
  const available = (): Record<string, unknown> => ({ available_files: groupFiles(listSkillFiles(dir)) })
  if (!real) return fail(`File '${rel}' not found in skill '${skill.name}'. Pick one of available_files.`, available())
  if (!isInside(realDir, real)) {
    return fail(`Path escapes allowed directory: '${rel}' resolves outside skill '${skill.name}'. Pick one of available_files.`, available())
  }
  if (statSync(real).isDirectory()) {
    return fail(`'${rel}' is a folder in skill '${skill.name}'. Pass one file from available_files.`, available())
  }
  const read = readSkillFile(real)
  if (read.kind === 'missing' || read.kind === 'dir') return fail(`File '${rel}' not found in skill '${skill.name}'.`, available())
  turn?.viewedSkills.add(viewedKey(skill.name, rel))
  deps.usage.recordView(skill.name)
  const common = { success: true as const, name: skill.name, file: rel, file_type: extname(rel).replace('.', '') || null, ...disabledNote(deps, skill.name) }
  if (read.kind === 'binary') {
    return {
      ...common,
      content: `[Binary file: ${basename(rel)}, size: ${read.buffer.length} bytes]`,
      is_binary: true,
      message: `'${rel}' is a binary file; its content is not shown.`
    }
  }
  return { ...common, content: read.text, message: `Loaded '${rel}' of skill '${skill.name}'.` }
}

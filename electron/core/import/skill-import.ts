import { existsSync, lstatSync, readdirSync, readFileSync, realpathSync, statSync } from 'node:fs'
import { storedRationale } from '../../../shared/proposal-rationale'
import { join, relative, sep } from 'node:path'
import type { ImportHome } from './import-home'
import type { ContentDanger } from '../../../shared/dangers'
import type { ProposalCause } from '../../../shared/proposals'
import type { Provenance } from '../../../shared/provenance'
import { ProposalStore } from '../ledger/proposals'
import { skillChangeDangers } from '../security/skill-dangers'
import { normalizeSkillMarkdown, specNameError } from '../skills/agent-skills-spec'
import { validateSkillContent } from '../skills/skill-file'
import { EXCLUDED_DIRS, isSupportDir, MAX_SCAN_DEPTH, SKILL_FILE, SUPPORT_DIRS } from '../skills/skill-paths'
import { prepareSkillMd } from '../skills/skill-write-support'
import { isHardLinked, reachedThroughLink } from './source-files'
import type { ImportCounts, ImportProblem } from './types'

/** A skill folder found in an imported home: its name (the folder), category (the folders above) and files. */
export interface SourceSkill {
  name: string
  category: string | null
  /** Relative to the imported home, for problems (`skills/devops/deploy`). */
  folder: string
  dir: string
}

/** Every folder under `skillsDir` holding a SKILL.md (not inside another skill, never in excluded or hidden folders). */
export function findSourceSkills(home: string, skillsDir: string): SourceSkill[] {
  const found: SourceSkill[] = []
  const walk = (dir: string, depth: number): void => {
    if (depth > MAX_SCAN_DEPTH) return
    let names: string[]
    try {
      names = readdirSync(dir).sort()
    } catch {
      return
    }
    if (depth > 0 && names.includes(SKILL_FILE)) {
      const parts = relative(skillsDir, dir).split(sep)
      found.push({ name: parts[parts.length - 1], category: parts.length > 1 ? parts.slice(0, -1).join('/') : null, folder: posix(relative(home, dir)), dir })
      return
    }
    for (const name of names) {
      if (name.startsWith('.') || EXCLUDED_DIRS.has(name)) continue
      const path = join(dir, name)
      // A folder that is a link could lead anywhere: only what is inside the imported folder comes in.
      if (isDirectory(path) && !lstatSync(path).isSymbolicLink()) walk(path, depth + 1)
    }
  }
  if (existsSync(skillsDir)) walk(skillsDir, 0)
  return found
}

function isDirectory(path: string): boolean {
  try {
    return statSync(path).isDirectory()
  } catch {
    return false
  }
}

function posix(path: string): string {
  return path.split(sep).join('/')
}

const utf8 = new TextDecoder('utf-8', { fatal: true })

/** The file as text, or null when it is not UTF-8 text (a binary file, which a skill write cannot carry). */
function readText(path: string): string | null {
  try {
    const text = utf8.decode(readFileSync(path))
    return text.includes('\0') ? null : text
  } catch {
    return null
  }
}

/** The supporting files a skill folder brings (under the four allowed folders), and what it leaves out. */
function supportFiles(skill: SourceSkill): { files: Array<{ path: string; text: string }>; problems: ImportProblem[] } {
  const files: Array<{ path: string; text: string }> = []
  const problems: ImportProblem[] = []
  const walk = (dir: string): void => {
    for (const name of readdirSync(dir).sort()) {
      const path = join(dir, name)
      const rel = posix(relative(skill.dir, path))
      // A link could pull in any file on the machine: only what is really in the skill's folder comes.
      if (lstatSync(path).isSymbolicLink()) problems.push({ file: `${skill.folder}/${rel}`, message: 'left out: it is a link, and only files inside the skill come in.' })
      else if (isDirectory(path)) walk(path)
      else {
        const text = readText(path)
        if (text === null) problems.push({ file: `${skill.folder}/${rel}`, message: 'left out: it is not UTF-8 text, and a skill brings text files only.' })
        else files.push({ path: rel, text })
      }
    }
  }
  for (const name of readdirSync(skill.dir).sort()) {
    if (name === SKILL_FILE) continue
    const path = join(skill.dir, name)
    if (isSupportDir(name) && isDirectory(path) && !lstatSync(path).isSymbolicLink()) walk(path)
    else problems.push({ file: `${skill.folder}/${name}`, message: `left out: a skill's supporting files live in ${SUPPORT_DIRS.map((dir) => `${dir}/`).join(', ')}.` })
  }
  return { files, problems }
}

/** What importing one skill would do, before anything is written. */
export type SkillPlan =
  /** `shadowReadOnly`: the skill is one Cairn already reads from a read-only root; the copy shadows it. */
  | { action: 'create'; skill: SourceSkill; content: string; shadowReadOnly?: boolean }
  | { action: 'identical'; skill: SourceSkill }
  /** `before` null: a new skill that only waits because of what it adds (`dangers`). */
  | { action: 'propose'; skill: SourceSkill; target: string; before: string | null; after: string; cause: ProposalCause; dangers?: ContentDanger[] }
  | { action: 'refuse'; skill: SourceSkill; problem: ImportProblem }

/**
 * What to do with one skill: a new name is created (its front matter normalised to a valid Agent Skill
 * by the store); a Cairn skill of that name that reads the same is left alone, a different one gets the
 * import's version as a proposal, never overwritten. The very skill Cairn already reads read-only
 * (Claude Code's ~/.claude/skills is in the default skills.extraDirs) is copied into Cairn's own skills,
 * where learning can improve it; the copy shadows the read-only one, whose file is left untouched.
 */
export function planSkill(core: ImportHome, skill: SourceSkill): SkillPlan {
  const file = `${skill.folder}/${SKILL_FILE}`
  if (reachedThroughLink(join(skill.dir, SKILL_FILE), file) || isHardLinked(join(skill.dir, SKILL_FILE))) {
    return { action: 'refuse', skill, problem: { file, message: 'left out: it is a link, and only files inside the folder being imported come in.' } }
  }
  const content = readText(join(skill.dir, SKILL_FILE))
  if (content === null) return { action: 'refuse', skill, problem: { file, message: 'could not be read as UTF-8 text; the skill was not imported.' } }
  const normalized = normalizeSkillMarkdown(content).content
  const existing = core.skills.get(skill.name)
  const readHere = existing !== null && existing.readOnly && sameFile(existing.path, join(skill.dir, SKILL_FILE))
  if (!existing || readHere) {
    // The checks the store's create makes, so a dry run reports the same refusals.
    const invalid = specNameError(skill.name) ?? validateSkillContent(content, skill.name)
    if (invalid) return { action: 'refuse', skill, problem: { file, ...lineOf(invalid), message: `not imported: ${invalid}` } }
    const prepared = prepareSkillMd(content, skill.name)
    if (!prepared.ok) return { action: 'refuse', skill, problem: { file, message: `not imported: ${prepared.result.error}` } }
    // An import is the user bringing their own skills in, but what could hurt if followed still waits (ledger/learning-policy.ts).
    const dangers = skillChangeDangers(null, content)
    if (dangers.length) return { action: 'propose', skill, target: newSkillTarget(skill), before: null, after: content, cause: 'dangerous_content', dangers }
    return readHere ? { action: 'create', skill, content, shadowReadOnly: true } : { action: 'create', skill, content }
  }
  const current = readText(existing.path)
  if (current === normalized || current === content) return { action: 'identical', skill }
  if (existing.readOnly || current === null) {
    return { action: 'refuse', skill, problem: { file, message: `not imported: Cairn already has a skill named '${skill.name}' at ${existing.path}, which it cannot change.` } }
  }
  const dangers = skillChangeDangers(current, normalized)
  const target = posix(relative(core.paths.root, existing.path))
  return { action: 'propose', skill, target, before: current, after: normalized, cause: dangers.length ? 'dangerous_content' : 'imported_skill', ...(dangers.length ? { dangers } : {}) }
}

/** Where a new skill's SKILL.md goes in the data home, as ledger rows and proposals name it. */
function newSkillTarget(skill: SourceSkill): string {
  return ['skills', ...(skill.category ? [skill.category] : []), skill.name, SKILL_FILE].join('/')
}

/** Where imported content came from: the import batch (`import:<id>` is its review id). */
export function importProvenance(reviewId: string): Provenance {
  return { origin: 'read', sources: [{ kind: 'import', label: `#${reviewId.replace(/^import:/, '')}` }] }
}

function sameFile(a: string, b: string): boolean {
  try {
    return realpathSync(a) === realpathSync(b)
  } catch {
    return false
  }
}

/**
 * The file line a front matter YAML error names (`at line 5`): the parser counts from its own opening
 * `---` line, one above the file's first line of YAML, so its number is one more than the file's.
 */
export function lineOf(message: string): { line?: number } {
  const match = /line (\d+)/i.exec(message)
  return match ? { line: Math.max(1, Number(match[1]) - 1) } : {}
}

/** Carries out one plan with the batch's attribution (source `import`, grouped under `reviewId`); true when it created the skill. */
export async function applySkillPlan(core: ImportHome, plan: SkillPlan, reviewId: string, counts: ImportCounts, problems: ImportProblem[]): Promise<boolean> {
  const provenance = importProvenance(reviewId)
  const write = { source: 'import' as const, reviewId, provenance }
  switch (plan.action) {
    case 'identical':
      counts.skills.identical++
      return false
    case 'refuse':
      counts.skills.refused++
      problems.push(plan.problem)
      return false
    case 'propose': {
      const proposals = new ProposalStore(core.db)
      const meta = { skill: plan.skill.name, ...(plan.before === null ? { category: plan.skill.category } : {}), provenance, ...(plan.dangers ? { dangers: plan.dangers } : {}) }
      const change = { kind: plan.before === null ? ('skill.create' as const) : ('skill.edit' as const), target: plan.target, before: plan.before, after: plan.after, meta }
      if (proposals.findIdentical(change, ['pending', 'rejected'])) return false
      proposals.add({ origin: 'review', reviewId, sessionId: null, ...change, reasons: [], cause: plan.cause, rationale: storedRationale({ code: 'imported_version', folder: plan.skill.folder }) })
      counts.skills.proposed++
      if (plan.before === null && supportFiles(plan.skill).files.length) {
        problems.push({ file: plan.skill.folder, message: 'its supporting files were not imported: the skill waits in the Inbox; import again after approving it.' })
      }
      return false
    }
    case 'create': {
      const { skill } = plan
      const created = await core.skills.create({ name: skill.name, category: skill.category, content: plan.content, shadowReadOnly: plan.shadowReadOnly }, write)
      if (!created.success) {
        counts.skills.refused++
        problems.push({ file: `${skill.folder}/${SKILL_FILE}`, message: `not imported: ${created.error}` })
        return false
      }
      counts.skills.created++
      const support = supportFiles(skill)
      problems.push(...support.problems)
      for (const file of support.files) {
        const written = await core.skills.writeFile({ name: skill.name, file_path: file.path, file_content: file.text }, write)
        if (written.success) counts.skills.files++
        else problems.push({ file: `${skill.folder}/${file.path}`, message: `left out: ${written.error}` })
      }
      return true
    }
  }
}

/** A dry run's count of what {@link applySkillPlan} would do; true when it would create the skill. */
export function countSkillPlan(core: ImportHome, plan: SkillPlan, counts: ImportCounts, problems: ImportProblem[]): boolean {
  switch (plan.action) {
    case 'identical':
      counts.skills.identical++
      return false
    case 'refuse':
      counts.skills.refused++
      problems.push(plan.problem)
      return false
    case 'propose':
      if (!new ProposalStore(core.db).findIdentical(plan, ['pending', 'rejected'])) counts.skills.proposed++
      return false
    case 'create': {
      counts.skills.created++
      const support = supportFiles(plan.skill)
      counts.skills.files += support.files.length
      problems.push(...support.problems)
      return true
    }
  }
}

import { existsSync, mkdirSync, readFileSync, renameSync, rmSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { assertUnchanged, writeFileAtomicText } from '../fs/atomic'
import { assertLocksHeld } from '../fs/lock'
import { symlinkBelow } from '../fs/symlinks'
import { fuzzyReplace } from '../text/fuzzy-replace'
import { specNameError, specProblems } from './agent-skills-spec'
import { contentSizeError, isStructural, skillIssues, validateSkillContent } from './skill-file'
import { listSkillFiles, groupFiles, readSkillFile, removeEmptyDirs } from './skill-dir-files'
import {
  ARCHIVE_DIR,
  MAX_CONTENT_CHARS,
  MAX_NAME_LENGTH,
  SKILL_FILE,
  checkWritableSupportPath,
  escapesMessage,
  normalizeCategory,
  symlinkOnPath,
  toPosixRelative,
  newSkillFolderProblem,
  validateCategory,
  validateNewSkillName,
  validateSkillName
} from './skill-paths'
import { applyRecorded } from './skill-commit'
import { viewedKey } from './skill-view'
import {
  fail,
  findSkillDirsOnDisk,
  ledgerTarget,
  locateWritable,
  missingDirs,
  movedFields,
  prepareSkillMd,
  scanSkillWrite,
  splitContext,
  withSkillLock,
  withWarnings,
  type SkillCallContext,
  type SkillResult,
  type SkillWriteDeps
} from './skill-write-support'

export interface CreateSkillInput {
  name: string
  category?: string | null
  content: string
  /**
   * Create it in the data home even though a read-only root (skills.extraDirs) holds that name: the data
   * home's copy then shadows it in the index. For an import copying a skill Cairn already reads; the
   * model's tools never set it.
   */
  shadowReadOnly?: boolean
}
export interface EditSkillInput { name: string; content: string }
export interface PatchSkillInput { name: string; old_string: string; new_string: string; replace_all?: boolean; file_path?: string | null }
export interface DeleteSkillInput { name: string; absorbed_into?: string | null }

const preview = (text: string, max = 200): string => (text.length > max ? text.slice(0, max) + '...' : text)

/**
 * The name of a skill Cairn creates: a folder every OS and the scanner accept (`validateNewSkillName`)
 * and an Agent Skills name, so other clients load it. Edits keep working for other names written elsewhere.
 */
function newNameError(name: string): string | null {
  const folderError = validateNewSkillName(name)
  if (folderError && folderError !== validateSkillName(name)) return folderError
  if (typeof name !== 'string' || name.trim() === '' || name.length > MAX_NAME_LENGTH) return folderError
  return specNameError(name) ?? folderError
}

export async function createSkill(deps: SkillWriteDeps, input: CreateSkillInput, ctx: SkillCallContext): Promise<SkillResult> {
  const { write, turn } = splitContext(ctx)
  const { name } = input
  const invalid = newNameError(name) ?? validateCategory(input.category) ?? validateSkillContent(input.content, name)
  if (invalid) return fail(invalid)
  const prepared = prepareSkillMd(input.content, name)
  if (!prepared.ok) return prepared.result
  const content = prepared.content
  const sizeError = contentSizeError(SKILL_FILE, content)
  if (sizeError) return fail(sizeError)
  const scan = scanSkillWrite(content, null)
  if (scan.blocked) return scan.blocked
  const category = normalizeCategory(input.category)

  return withSkillLock(deps, name, async () => {
    const existing = findSkillDirsOnDisk(deps.skillsDir, name)[0]
    if (existing) {
      return fail(`A skill named '${name}' already exists at ${existing}. Use action='patch' or action='edit' to change it, or choose another name.`)
    }
    const elsewhere = deps.index.get(name)
    if (elsewhere && elsewhere.readOnly && !input.shadowReadOnly) {
      return fail(`A skill named '${name}' already exists at ${elsewhere.path} (a read-only folder). Choose another name.`)
    }
    const relParts = category ? [category, name] : [name]
    const link = symlinkOnPath(deps.skillsDir, relParts)
    if (link) return fail(escapesMessage(relParts.join('/'), link))
    const occupied = newSkillFolderProblem(deps.skillsDir, relParts)
    if (occupied) return fail(occupied)
    const dir = join(deps.skillsDir, ...relParts)
    const skillMd = join(dir, SKILL_FILE)
    const created = missingDirs(deps.skillsDir, relParts)
    mkdirSync(dir, { recursive: true })
    // Remove only what this call made: a pre-existing folder without SKILL.md keeps its other files.
    const undo = (): void => {
      if (created.length) rmSync(created[0], { recursive: true, force: true })
      else rmSync(skillMd, { force: true })
    }
    const failed = await applyRecorded(deps, {
      name,
      changes: [{ kind: 'skill.create', target: ledgerTarget(deps, skillMd), before: null, after: content, meta: { skill: name, category } }],
      write,
      apply: () => writeFileAtomicText(skillMd, content, { expect: null }),
      undo,
      cleanup: undo,
      // A copy of the very skill Cairn read from a read-only root is that skill: its figures go on.
      beforeCommit: () => (input.shadowReadOnly ? deps.usage.recordCopy(name, write.source) : deps.usage.recordCreate(name, write.source))
    })
    if (failed) return failed
    deps.index.refreshSkillFile(skillMd)
    deps.notify({ name, path: skillMd, type: 'add' })
    turn?.viewedSkills.add(viewedKey(name)) // its author has read it
    const description = String(deps.index.get(name)?.description ?? '')
    return withWarnings({
      success: true,
      message: `Skill '${name}' created.${prepared.note}`,
      ...movedFields(prepared),
      path: relParts.join('/'),
      skill_md: skillMd,
      ...(category ? { category } : {}),
      _change: { description: description.slice(0, 120) },
      hint: `To add reference files, templates or scripts, use skill_manage(action='write_file', name='${name}', file_path='references/<file>.md', file_content='...').`
    }, scan.warnings)
  })
}

export async function editSkill(deps: SkillWriteDeps, input: EditSkillInput, ctx: SkillCallContext): Promise<SkillResult> {
  const { write } = splitContext(ctx)
  const { name } = input
  const invalid = validateSkillName(name) ?? validateSkillContent(input.content, name)
  if (invalid) return fail(invalid)
  // A folder name from elsewhere (dots, underscores) cannot be fixed by the content, so it does not block an edit.
  const prepared = prepareSkillMd(input.content, name, (problem) => problem.code === 'name')
  if (!prepared.ok) return prepared.result
  const content = prepared.content
  const sizeError = contentSizeError(SKILL_FILE, content)
  if (sizeError) return fail(sizeError)

  return withSkillLock(deps, name, async () => {
    const located = locateWritable(deps, name)
    if (!located.ok) return located.result
    const link = symlinkOnPath(deps.skillsDir, [...located.relParts, SKILL_FILE])
    if (link) return fail(escapesMessage(SKILL_FILE, link))
    const beforeBytes = readFileSync(located.skillMd)
    const before = beforeBytes.toString('utf8')
    const scan = scanSkillWrite(content, before)
    if (scan.blocked) return scan.blocked
    if (before === content) return { success: true, message: `Skill '${name}' unchanged: the content is identical.${prepared.note}` }
    const failed = await applyRecorded(deps, {
      name,
      changes: [{ kind: 'skill.edit', target: ledgerTarget(deps, located.skillMd), before, after: content, meta: { skill: name, category: located.category } }],
      write,
      apply: () => writeFileAtomicText(located.skillMd, content, { expect: beforeBytes }),
      undo: () => writeFileAtomicText(located.skillMd, beforeBytes),
      beforeCommit: () => deps.usage.recordPatch(name)
    })
    if (failed) return failed
    deps.index.refreshSkillFile(located.skillMd)
    deps.notify({ name, path: located.skillMd, type: 'change' })
    return withWarnings(
      { success: true, message: `Skill '${name}' updated (full rewrite).${prepared.note}`, ...movedFields(prepared), path: located.relParts.join('/') },
      scan.warnings
    )
  })
}

/** Issues of the patched SKILL.md that the original did not already have (a patch is not blamed for those). */
function patchBreaks(original: string, patched: string, name: string): string | null {
  const issues = skillIssues(patched, name)
  const had = new Set(skillIssues(original, name).filter((issue) => !isStructural(issue)).map((issue) => issue.message))
  return issues.find((issue) => isStructural(issue) || !had.has(issue.message))?.message ?? null
}

export async function patchSkill(deps: SkillWriteDeps, input: PatchSkillInput, ctx: SkillCallContext): Promise<SkillResult> {
  const { write } = splitContext(ctx)
  const { name } = input
  const nameError = validateSkillName(name)
  if (nameError) return fail(nameError)
  const rawPath = input.file_path?.trim()
  const isMain = !rawPath || rawPath === SKILL_FILE
  let fileParts = [SKILL_FILE]
  if (!isMain) {
    const checked = checkWritableSupportPath(rawPath)
    if (!checked.ok) return fail(checked.error)
    fileParts = checked.parts
  }
  const fileLabel = fileParts.join('/')

  return withSkillLock(deps, name, async () => {
    const located = locateWritable(deps, name)
    if (!located.ok) return located.result
    const link = symlinkOnPath(deps.skillsDir, [...located.relParts, ...fileParts])
    if (link) return fail(escapesMessage(fileLabel, link))
    const path = join(located.dir, ...fileParts)
    const read = readSkillFile(path)
    if (read.kind !== 'text') {
      if (read.kind === 'binary') return fail(`File '${fileLabel}' is binary; patch only changes text files.`)
      return fail(`File not found: ${located.relParts.join('/')}/${fileLabel}`, {
        available_files: groupFiles(listSkillFiles(located.dir)),
        hint: `Patch an existing file, or add it with skill_manage(action='write_file', name='${name}', file_path='${fileLabel}', file_content='...').`
      })
    }
    const original = read.text
    const replaced = fuzzyReplace(original, input.old_string, input.new_string, input.replace_all ?? false)
    if (!replaced.ok) {
      return fail(replaced.error, {
        code: replaced.code,
        candidates: replaced.candidates,
        file_preview: preview(original, 500),
        hint: patchHint(replaced.code, name, isMain ? null : fileLabel)
      })
    }
    // A real no-op: old_string was found, and new_string fitted to the file is the same text. (old_string absent
    // with new_string present is a not_found failure from fuzzyReplace, never a success.)
    if (replaced.content === original) {
      return {
        success: true,
        message: `old_string was found in ${fileLabel} of skill '${name}', but new_string is the same text once fitted to the file (quote style, indentation); nothing changed.`
      }
    }
    let patched = replaced.content
    let prepared: { moved: string[]; note: string } = { moved: [], note: '' }
    if (isMain) {
      const broken = patchBreaks(original, patched, name)
      if (broken) return fail(`Patch would break SKILL.md structure: ${broken}`)
      // The patched file's front matter is normalized too; Agent Skills problems it already had are not the patch's doing.
      const had = new Set(specProblems(original, name).map((problem) => problem.message))
      const normalized = prepareSkillMd(patched, name, (problem) => had.has(problem.message))
      if (!normalized.ok) return normalized.result
      patched = normalized.content
      prepared = normalized
      if (patched === original) {
        return { success: true, message: `The patch only added front matter that SKILL.md of skill '${name}' already keeps under metadata; nothing changed.` }
      }
    }
    // Only the patch's own growth counts against an oversize file, not the front matter rewrite's.
    if (replaced.content.length > MAX_CONTENT_CHARS && replaced.content.length > original.length) {
      return fail(contentSizeError(fileLabel, replaced.content)!)
    }
    const scan = scanSkillWrite(patched, original)
    if (scan.blocked) return scan.blocked
    const failed = await applyRecorded(deps, {
      name,
      changes: [{ kind: 'skill.patch', target: ledgerTarget(deps, path), before: original, after: patched, meta: { skill: name, category: located.category } }],
      write,
      apply: () => writeFileAtomicText(path, patched, { expect: original }),
      undo: () => writeFileAtomicText(path, original),
      beforeCommit: () => deps.usage.recordPatch(name)
    })
    if (failed) return failed
    if (isMain) {
      deps.index.refreshSkillFile(path)
      deps.notify({ name, path, type: 'change' })
    }
    const count = replaced.replacements
    return withWarnings({
      success: true,
      message: `Patched ${fileLabel} in skill '${name}' (${count} replacement${count === 1 ? '' : 's'}).${prepared.note}`,
      ...movedFields(prepared),
      strategy: replaced.strategy,
      _change: { old: preview(input.old_string), new: preview(input.new_string) }
    }, scan.warnings)
  })
}

function patchHint(code: string, name: string, filePath: string | null): string {
  const view = filePath ? `skill_view(name='${name}', file_path='${filePath}')` : `skill_view(name='${name}')`
  switch (code) {
    case 'ambiguous':
      return `old_string matches more than one place. Add surrounding lines so it matches exactly one, or set replace_all=true to change every match.`
    case 'identical':
      return 'old_string and new_string are the same, so there is nothing to change. Send the text you want in new_string.'
    case 'empty_old':
      return `old_string is empty. Copy the exact text to replace from ${view}; to rewrite the whole file use action='edit'.`
    default:
      return `Call ${view} to see the current text, then resend old_string copied exactly from it (one of the candidates above if it is the right place).`
  }
}

export async function deleteSkill(deps: SkillWriteDeps, input: DeleteSkillInput, ctx: SkillCallContext): Promise<SkillResult> {
  const { write } = splitContext(ctx)
  const { name } = input
  const nameError = validateSkillName(name)
  if (nameError) return fail(nameError)
  const absorbedInto = input.absorbed_into?.trim() || null
  if (absorbedInto === name) return fail(`absorbed_into='${absorbedInto}' cannot equal the skill being deleted.`)
  if (absorbedInto && !deps.index.get(absorbedInto) && !findSkillDirsOnDisk(deps.skillsDir, absorbedInto).length) {
    return fail(`absorbed_into='${absorbedInto}' does not exist. Create or patch the umbrella skill first, then retry the delete.`)
  }

  return withSkillLock(deps, name, async () => {
    const located = locateWritable(deps, name)
    if (!located.ok) return located.result
    const link = symlinkOnPath(deps.skillsDir, located.relParts)
    if (link) return fail(escapesMessage(located.relParts.join('/'), link))
    const beforeBytes = readFileSync(located.skillMd)
    const before = beforeBytes.toString('utf8')
    const archiveDir = archiveFolderFor(deps.skillsDir, name)
    const archiveLink = archiveLinkProblem(deps.skillsDir, archiveDir)
    if (archiveLink) return fail(archiveLink)
    const categoryDir = dirname(located.dir)
    const failed = await applyRecorded(deps, {
      name,
      changes: [
        {
          kind: 'skill.delete',
          target: ledgerTarget(deps, located.skillMd),
          before,
          after: null,
          meta: { skill: name, category: located.category, archivePath: ledgerTarget(deps, archiveDir), ...(absorbedInto ? { absorbedInto } : {}) }
        }
      ],
      write,
      apply: () => {
        mkdirSync(dirname(archiveDir), { recursive: true })
        assertLocksHeld()
        assertUnchanged(located.skillMd, beforeBytes)
        renameSync(located.dir, archiveDir)
      },
      undo: () => {
        mkdirSync(categoryDir, { recursive: true })
        renameSync(archiveDir, located.dir)
      }
    })
    if (failed) return failed
    removeEmptyDirs(categoryDir, deps.skillsDir)
    deps.index.removeUnder(located.dir)
    deps.notify({ name, path: located.skillMd, type: 'unlink' })
    const archived = ledgerTarget(deps, archiveDir)
    return {
      success: true,
      message: `Skill '${name}' deleted (archived to ${archived}; reverting the change restores it).` +
        (absorbedInto ? ` Content absorbed into '${absorbedInto}'.` : ''),
      archive_path: archived
    }
  })
}

/**
 * Why a skill may not be moved into or out of `archiveDir`: `.archive` (or the folder) is a symlink.
 * Cairn never moves skills through a symlink it did not create; null when there is none.
 */
export function archiveLinkProblem(skillsDir: string, archiveDir: string): string | null {
  const link = symlinkBelow(skillsDir, archiveDir)
  return link
    ? `Nothing was moved: ${toPosixRelative(skillsDir, link) || link} is a symlink, and Cairn never moves skills through a symlink it did not create. ` +
        'Replace it with a real folder (or remove it), then try again.'
    : null
}

/** `skills/.archive/<name>-<timestamp>`, unique even for two deletes in the same millisecond. */
export function archiveFolderFor(skillsDir: string, name: string): string {
  const stamp = new Date().toISOString().replace(/[:.]/g, '-')
  const base = join(skillsDir, ARCHIVE_DIR, `${name}-${stamp}`)
  let candidate = base
  for (let i = 2; existsSync(candidate); i++) candidate = `${base}-${i}`
  return candidate
}

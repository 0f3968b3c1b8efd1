import { mkdirSync, rmSync, unlinkSync, writeFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { assertUnchanged, writeFileAtomicText } from '../fs/atomic'
import { assertLocksHeld } from '../fs/lock'
import { applyRecorded } from './skill-commit'
import { contentSizeError, fileBytesError } from './skill-file'
import { groupFiles, listSkillFiles, readSkillFile, removeEmptyDirs } from './skill-dir-files'
import { checkSupportPath, checkWritableSupportPath, escapesMessage, symlinkOnPath, validateSkillName } from './skill-paths'
import { viewedKey } from './skill-view'
import {
  fail,
  ledgerTarget,
  locateWritable,
  missingDirs,
  scanSkillWrite,
  splitContext,
  withSkillLock,
  withWarnings,
  type SkillCallContext,
  type SkillResult,
  type SkillWriteDeps
} from './skill-write-support'

export interface WriteSkillFileInput { name: string; file_path: string; file_content: string }
export interface RemoveSkillFileInput { name: string; file_path: string }

export async function writeSkillFile(deps: SkillWriteDeps, input: WriteSkillFileInput, ctx: SkillCallContext): Promise<SkillResult> {
  const { write, turn } = splitContext(ctx)
  const { name, file_content: content } = input
  const nameError = validateSkillName(name)
  if (nameError) return fail(nameError)
  const checked = checkWritableSupportPath(input.file_path)
  if (!checked.ok) return fail(checked.error)
  const sizeError = fileBytesError(content) ?? contentSizeError(checked.path, content)
  if (sizeError) return fail(sizeError)

  return withSkillLock(deps, name, async () => {
    const located = locateWritable(deps, name)
    if (!located.ok) {
      if (located.result.error.includes('not found')) {
        return fail(`Skill '${name}' not found. Create it first with action='create', then add files with write_file.`)
      }
      return located.result
    }
    const link = symlinkOnPath(deps.skillsDir, [...located.relParts, ...checked.parts])
    if (link) return fail(escapesMessage(checked.path, link))
    const path = join(located.dir, ...checked.parts)
    const existing = readSkillFile(path)
    if (existing.kind === 'dir') return fail(`'${checked.path}' is a folder in skill '${name}'. Give a file path inside it, e.g. '${checked.path}/notes.md'.`)
    if (existing.kind === 'binary') {
      return fail(`'${checked.path}' is a binary file; write_file only writes text. Remove it first with action='remove_file' if you mean to replace it.`)
    }
    const before = existing.kind === 'text' ? existing.text : null
    const scan = scanSkillWrite(content, before)
    if (scan.blocked) return scan.blocked
    if (before === content) return { success: true, message: `File '${checked.path}' in skill '${name}' already has this content; nothing changed.` }
    const created = missingDirs(located.dir, checked.parts.slice(0, -1))
    mkdirSync(dirname(path), { recursive: true })
    const undo = async (): Promise<void> => {
      if (before !== null) await writeFileAtomicText(path, before)
      else {
        rmSync(path, { force: true })
        if (created.length) rmSync(created[0], { recursive: true, force: true })
      }
    }
    const failed = await applyRecorded(deps, {
      name,
      changes: [{ kind: 'skill.file_write', target: ledgerTarget(deps, path), before, after: content, meta: { skill: name, category: located.category } }],
      write,
      apply: () => writeFileAtomicText(path, content, { expect: before }),
      undo,
      cleanup: () => {
        if (created.length) rmSync(created[0], { recursive: true, force: true })
      },
      beforeCommit: () => deps.usage.recordPatch(name)
    })
    if (failed) return failed
    turn?.viewedSkills.add(viewedKey(name, checked.path)) // its author has read it
    return withWarnings({ success: true, message: `File '${checked.path}' written to skill '${name}'.` }, scan.warnings)
  })
}

export async function removeSkillFile(deps: SkillWriteDeps, input: RemoveSkillFileInput, ctx: SkillCallContext): Promise<SkillResult> {
  const { write } = splitContext(ctx)
  const { name } = input
  const nameError = validateSkillName(name)
  if (nameError) return fail(nameError)
  const checked = checkSupportPath(input.file_path)
  if (!checked.ok) {
    return fail(checked.error.includes('SKILL.md') ? `${checked.error} To remove the whole skill use action='delete'.` : checked.error)
  }

  return withSkillLock(deps, name, async () => {
    const located = locateWritable(deps, name)
    if (!located.ok) return located.result
    const link = symlinkOnPath(deps.skillsDir, [...located.relParts, ...checked.parts])
    if (link) return fail(escapesMessage(checked.path, link))
    const path = join(located.dir, ...checked.parts)
    const existing = readSkillFile(path)
    if (existing.kind === 'missing') {
      return fail(`File '${checked.path}' not found in skill '${name}'.`, { available_files: groupFiles(listSkillFiles(located.dir)) })
    }
    if (existing.kind === 'dir') return fail(`'${checked.path}' is a folder; remove its files one at a time.`)
    // The ledger holds text; a binary file's bytes go in as base64 so a revert can put them back.
    const before = existing.kind === 'text' ? existing.text : existing.buffer.toString('base64')
    const encoding = existing.kind === 'text' ? null : 'base64'
    const bytes = existing.kind === 'text' ? Buffer.from(existing.text, 'utf8') : existing.buffer
    const failed = await applyRecorded(deps, {
      name,
      changes: [
        {
          kind: 'skill.file_remove',
          target: ledgerTarget(deps, path),
          before,
          after: null,
          meta: { skill: name, category: located.category, ...(encoding ? { encoding } : {}) }
        }
      ],
      write,
      apply: () => {
        assertLocksHeld()
        assertUnchanged(path, bytes)
        unlinkSync(path)
      },
      undo: () => {
        mkdirSync(dirname(path), { recursive: true })
        writeFileSync(path, bytes)
      },
      beforeCommit: () => deps.usage.recordPatch(name)
    })
    if (failed) return failed
    removeEmptyDirs(dirname(path), located.dir)
    return { success: true, message: `File '${checked.path}' removed from skill '${name}'.` }
  })
}

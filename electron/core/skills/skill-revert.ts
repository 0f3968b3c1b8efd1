import { existsSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { skillNameOf, type LearnedChange, type LedgerEntry, type RevertResult } from '../../../shared/ledger'
import { writeFileAtomicText } from '../fs/atomic'
import { readSkillFile, removeEmptyDirs } from './skill-dir-files'
import { SKILL_FILE, isInside, isSupportDir, symlinkOnPath, toPosixRelative } from './skill-paths'
import { archiveFolderFor, archiveLinkProblem } from './skill-writer'
import { findSkillDirsOnDisk, ledgerTarget, withSkillLock, type SkillWriteDeps } from './skill-write-support'

/** Where a ledger target lives on disk, and which skill folder it belongs to. */
interface RevertTarget {
  path: string
  skillDir: string
  name: string
  category: string | null
  /** Path components of the target below the skills folder (for the symlink check). */
  parts: string[]
}

function resolveTarget(deps: SkillWriteDeps, entry: LedgerEntry): RevertTarget | string {
  const parts = entry.target.split('/')
  if (parts.some((part) => part === '..' || part === '')) return `Ledger row ${entry.id} has an invalid target '${entry.target}'.`
  const path = join(deps.dataHome, ...parts)
  if (!isInside(deps.skillsDir, path) || path === deps.skillsDir) {
    return `Ledger row ${entry.id} points outside the skills folder ('${entry.target}'); it cannot be reverted here.`
  }
  const below = toPosixRelative(deps.skillsDir, path).split('/')
  // The skill folder ends before SKILL.md or before the first support folder.
  let end = below.length - 1
  if (below[end] !== SKILL_FILE) {
    end = below.findIndex((part, index) => index > 0 && isSupportDir(part))
    if (end < 1) return `Ledger row ${entry.id} has a target '${entry.target}' that is not inside a skill.`
  }
  const skillParts = below.slice(0, end)
  const metaSkill = skillNameOf(entry)
  return {
    path,
    skillDir: join(deps.skillsDir, ...skillParts),
    name: metaSkill ?? skillParts[skillParts.length - 1],
    category: skillParts.length > 1 ? skillParts.slice(0, -1).join('/') : null,
    parts: below
  }
}

function currentText(path: string): string | null {
  const read = readSkillFile(path)
  if (read.kind === 'text') return read.text
  if (read.kind === 'binary') return read.buffer.toString('base64')
  return null
}

/**
 * Undoes one skill change from the ledger if the target still holds what the change left there;
 * otherwise reports the conflict. The revert is itself recorded (source `revert`, `meta.revertOf`).
 */
export async function revertSkillChange(deps: SkillWriteDeps, entry: LedgerEntry): Promise<RevertResult> {
  if (!entry.kind.startsWith('skill.')) {
    return { ok: false, error: `Ledger row ${entry.id} (${entry.kind}) is not a skill change; revert it through its own store.` }
  }
  const target = resolveTarget(deps, entry)
  if (typeof target === 'string') return { ok: false, error: target }

  return withSkillLock(deps, target.name, async () => {
    const link = symlinkOnPath(deps.skillsDir, target.parts)
    if (link) return { ok: false, error: `Cannot revert: ${entry.target} goes through the symlink ${link}; Cairn never writes through symlinks.` }
    const actual = currentText(target.path)
    if (actual !== entry.after) {
      return {
        ok: false,
        error: `${entry.target} has changed since ledger row ${entry.id}; reverting would overwrite the newer text. ` +
          'Compare the two versions and edit the skill by hand if you still want the old one.',
        conflict: { expected: entry.after, actual }
      }
    }
    const meta = { skill: target.name, category: target.category, revertOf: entry.id }
    const record = (change: LearnedChange): RevertResult => ({ ok: true, revertEntry: deps.recorder.record(change, { source: 'revert' }) })

    switch (entry.kind) {
      case 'skill.create': {
        const archiveDir = archiveFolderFor(deps.skillsDir, target.name)
        const archiveLink = archiveLinkProblem(deps.skillsDir, archiveDir)
        if (archiveLink) return { ok: false, error: archiveLink }
        mkdirSync(dirname(archiveDir), { recursive: true })
        renameSync(target.skillDir, archiveDir)
        const result = record({
          kind: 'skill.delete', target: entry.target, before: entry.after, after: null,
          meta: { ...meta, archivePath: ledgerTarget(deps, archiveDir) }
        })
        removeEmptyDirs(dirname(target.skillDir), deps.skillsDir)
        deps.index.removeUnder(target.skillDir)
        deps.notify({ name: target.name, path: target.path, type: 'unlink' })
        return result
      }
      case 'skill.delete': {
        const archivePath = entry.meta.archivePath
        const archiveDir = archivePath && !archivePath.split('/').includes('..') ? join(deps.dataHome, ...archivePath.split('/')) : null
        if (!archivePath || !archiveDir || !existsSync(join(archiveDir, SKILL_FILE))) {
          return { ok: false, error: `The archived copy of skill '${target.name}' (${archivePath ?? 'unknown'}) is gone, so it cannot be restored.` }
        }
        const archiveLink = archiveLinkProblem(deps.skillsDir, archiveDir)
        if (archiveLink) return { ok: false, error: archiveLink }
        const clash = findSkillDirsOnDisk(deps.skillsDir, target.name)[0]
        if (clash) {
          return {
            ok: false,
            error: `A skill named '${target.name}' exists now at ${clash}; delete or rename it before restoring the archived one.`,
            conflict: { expected: null, actual: currentText(join(clash, SKILL_FILE)) }
          }
        }
        const restored = readFileSync(join(archiveDir, SKILL_FILE), 'utf8')
        mkdirSync(dirname(target.skillDir), { recursive: true })
        renameSync(archiveDir, target.skillDir)
        const result = record({ kind: 'skill.create', target: entry.target, before: null, after: restored, meta: { ...meta, restoredFrom: archivePath } })
        deps.index.refreshSkillFile(target.path)
        deps.notify({ name: target.name, path: target.path, type: 'add' })
        return result
      }
      case 'skill.file_remove': {
        if (!existsSync(join(target.skillDir, SKILL_FILE))) {
          return { ok: false, error: `Skill '${target.name}' no longer exists; restore the skill first, then revert this file removal.` }
        }
        const encoding = entry.meta.encoding === 'base64' ? 'base64' : null
        mkdirSync(dirname(target.path), { recursive: true })
        if (encoding) writeFileSync(target.path, Buffer.from(entry.before ?? '', 'base64'))
        else await writeFileAtomicText(target.path, entry.before ?? '')
        return record({
          kind: 'skill.file_write', target: entry.target, before: null, after: entry.before,
          meta: { ...meta, ...(encoding ? { encoding } : {}) }
        })
      }
      default: {
        // skill.patch, skill.edit, skill.file_write: put the old text back (or remove a file the write added).
        if (entry.before === null) {
          rmSync(target.path, { force: true })
          removeEmptyDirs(dirname(target.path), target.skillDir)
          return record({ kind: 'skill.file_remove', target: entry.target, before: entry.after, after: null, meta })
        }
        await writeFileAtomicText(target.path, entry.before)
        const result = record({ kind: entry.kind, target: entry.target, before: entry.after, after: entry.before, meta })
        if (target.path.endsWith(`/${SKILL_FILE}`) || target.path.endsWith(`\\${SKILL_FILE}`)) {
          deps.index.refreshSkillFile(target.path)
          deps.notify({ name: target.name, path: target.path, type: 'change' })
        }
        return result
      }
    }
  })
}

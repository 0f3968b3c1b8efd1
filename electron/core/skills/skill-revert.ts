import { existsSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { skillNameOf, type LearnedChange, type LedgerEntry, type RevertResult } from '../../../shared/ledger'
import { StaleWriteError, assertUnchanged, writeFileAtomicText } from '../fs/atomic'
import { assertLocksHeld } from '../fs/lock'
import { beginChanges, type ChangeRecorder, type PendingRecorder } from '../ledger/recorder'
import { applyRecorded, type RecordedChange } from './skill-commit'
import { readSkillFile, removeEmptyDirs } from './skill-dir-files'
import { SKILL_FILE, isInside, isSupportDir, symlinkOnPath, toPosixRelative } from './skill-paths'
import { archiveFolderFor, archiveLinkProblem } from './skill-writer'
import { findSkillDirsOnDisk, ledgerTarget, withSkillLock, type SkillWriteDeps } from './skill-write-support'
import { refusal } from '../ledger/refusal'

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
  if (parts.some((part) => part === '..' || part === '')) return `Timeline entry #${entry.id} has an invalid target '${entry.target}'.`
  const path = join(deps.dataHome, ...parts)
  if (!isInside(deps.skillsDir, path) || path === deps.skillsDir) {
    return `Timeline entry #${entry.id} points outside the skills folder ('${entry.target}'); it cannot be reverted here.`
  }
  const below = toPosixRelative(deps.skillsDir, path).split('/')
  // The skill folder ends before SKILL.md or before the first support folder.
  let end = below.length - 1
  if (below[end] !== SKILL_FILE) {
    end = below.findIndex((part, index) => index > 0 && isSupportDir(part))
    if (end < 1) return `Timeline entry #${entry.id} has a target '${entry.target}' that is not inside a skill.`
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
 * A recorder that hands the rows applyRecorded commits to the revert, which returns its own row. It
 * starts the rows as the recorder underneath does (pending first for the ledger), so a revert is
 * recorded exactly like any other skill write.
 */
function capturingRecorder(recorder: ChangeRecorder, committed: LedgerEntry[]): ChangeRecorder & PendingRecorder {
  return {
    record: (change, ctx) => recorder.record(change, ctx),
    begin: (changes, ctx) => {
      const pending = beginChanges(recorder, changes, ctx)
      return {
        commit: () => {
          const entries = pending.commit()
          committed.push(...entries)
          return entries
        },
        abort: () => pending.abort()
      }
    }
  }
}

export interface SkillRevertOptions {
  /**
   * The user saw the conflict and confirmed: put the old text back over whatever the target holds now.
   * The revert's row then records that current text as its `before`, so undoing the revert brings it back.
   */
  force?: boolean
}

/**
 * Undoes one skill change from the ledger if the target still holds what the change left there;
 * otherwise reports the conflict (unless `force`). The revert is itself recorded (source `revert`,
 * `meta.revertOf`), the way every skill write is (see applyRecorded): its row pending first, then the
 * disk change, then the row committed, so a revert killed in between is reconciled at the next start.
 */
export async function revertSkillChange(deps: SkillWriteDeps, entry: LedgerEntry, options: SkillRevertOptions = {}): Promise<RevertResult> {
  if (!entry.kind.startsWith('skill.')) {
    return refusal('revert.not_skill', { id: entry.id, kind: entry.kind })
  }
  const target = resolveTarget(deps, entry)
  if (typeof target === 'string') return { ok: false, error: target }

  return withSkillLock(deps, target.name, async () => {
    const link = symlinkOnPath(deps.skillsDir, target.parts)
    if (link) return refusal('revert.skill_symlink', { target: entry.target, link })
    const actual = currentText(target.path)
    const forced = Boolean(options.force) && actual !== entry.after
    if (actual !== entry.after && !options.force) {
      return { ...refusal('revert.skill_changed', { id: entry.id, target: entry.target }), conflict: { expected: entry.after, actual } }
    }
    /** What the target holds now, which the revert replaces: the change's own text, or (forced) the newer one. */
    const current = forced ? actual : entry.after
    const meta = { skill: target.name, category: target.category, revertOf: entry.id }
    const committed: LedgerEntry[] = []
    const recorded = { ...deps, recorder: capturingRecorder(deps.recorder, committed) }
    /** Applies the change with its row; the revert's own row, or why nothing was written. */
    const apply = async (change: LearnedChange, steps: Omit<RecordedChange, 'name' | 'changes' | 'write'>): Promise<RevertResult> => {
      const failed = await applyRecorded(recorded, { name: target.name, changes: [change], write: { source: 'revert' }, ...steps })
      if (failed) return { ok: false, error: failed.error }
      return { ok: true, revertEntry: committed[0] }
    }

    switch (entry.kind) {
      case 'skill.create': {
        if (current === null) return refusal('revert.skill_gone', { name: target.name })
        const archiveDir = archiveFolderFor(deps.skillsDir, target.name)
        const archiveLink = archiveLinkProblem(deps.skillsDir, archiveDir)
        if (archiveLink) return { ok: false, error: archiveLink }
        const result = await apply(
          { kind: 'skill.delete', target: entry.target, before: current, after: null, meta: { ...meta, archivePath: ledgerTarget(deps, archiveDir) } },
          {
            apply: () => {
              mkdirSync(dirname(archiveDir), { recursive: true })
              assertLocksHeld()
              assertUnchanged(target.path, current)
              renameSync(target.skillDir, archiveDir)
            },
            undo: () => {
              mkdirSync(dirname(target.skillDir), { recursive: true })
              renameSync(archiveDir, target.skillDir)
            }
          }
        )
        if (!result.ok) return result
        removeEmptyDirs(dirname(target.skillDir), deps.skillsDir)
        deps.index.removeUnder(target.skillDir)
        deps.notify({ name: target.name, path: target.path, type: 'unlink' })
        return result
      }
      case 'skill.delete': {
        // Restoring the archived skill over one of the same name would lose that one: never forced.
        if (forced) {
          return { ...refusal('revert.skill_exists_again', { name: target.name }), conflict: { expected: null, actual } }
        }
        const archivePath = entry.meta.archivePath
        const archiveDir = archivePath && !archivePath.split('/').includes('..') ? join(deps.dataHome, ...archivePath.split('/')) : null
        if (!archivePath || !archiveDir || !existsSync(join(archiveDir, SKILL_FILE))) {
          return refusal('revert.skill_archive_gone', { name: target.name, archive: archivePath ?? 'unknown' })
        }
        const archiveLink = archiveLinkProblem(deps.skillsDir, archiveDir)
        if (archiveLink) return { ok: false, error: archiveLink }
        const clash = findSkillDirsOnDisk(deps.skillsDir, target.name)[0]
        if (clash) {
          return { ...refusal('revert.skill_exists_at', { name: target.name, path: clash }), conflict: { expected: null, actual: currentText(join(clash, SKILL_FILE)) } }
        }
        const restored = readFileSync(join(archiveDir, SKILL_FILE), 'utf8')
        const result = await apply(
          { kind: 'skill.create', target: entry.target, before: null, after: restored, meta: { ...meta, restoredFrom: archivePath } },
          {
            apply: () => {
              mkdirSync(dirname(target.skillDir), { recursive: true })
              assertLocksHeld()
              if (existsSync(target.skillDir)) throw new StaleWriteError(target.path)
              renameSync(archiveDir, target.skillDir)
            },
            undo: () => renameSync(target.skillDir, archiveDir),
            cleanup: () => removeEmptyDirs(dirname(target.skillDir), deps.skillsDir)
          }
        )
        if (!result.ok) return result
        deps.index.refreshSkillFile(target.path)
        deps.notify({ name: target.name, path: target.path, type: 'add' })
        return result
      }
      case 'skill.file_remove': {
        if (!existsSync(join(target.skillDir, SKILL_FILE))) {
          return refusal('revert.skill_missing_for_file', { name: target.name })
        }
        const encoding = entry.meta.encoding === 'base64' ? 'base64' : null
        const bytes = encoding ? Buffer.from(entry.before ?? '', 'base64') : (entry.before ?? '')
        return apply(
          { kind: 'skill.file_write', target: entry.target, before: current, after: entry.before, meta: { ...meta, ...(encoding ? { encoding } : {}) } },
          {
            apply: async () => {
              mkdirSync(dirname(target.path), { recursive: true })
              await writeFileAtomicText(target.path, bytes, { expect: current })
            },
            undo: () => (current === null ? rmSync(target.path, { force: true }) : writeFileAtomicText(target.path, current)),
            cleanup: () => removeEmptyDirs(dirname(target.path), target.skillDir)
          }
        )
      }
      default: {
        // skill.patch, skill.edit, skill.file_write: put the old text back (or remove a file the write added).
        const wrote = current
        if (wrote === null) return refusal('revert.file_removed_since', { target: entry.target })
        if (entry.before === null) {
          const result = await apply(
            { kind: 'skill.file_remove', target: entry.target, before: wrote, after: null, meta },
            {
              apply: () => {
                assertLocksHeld()
                assertUnchanged(target.path, wrote)
                rmSync(target.path, { force: true })
              },
              undo: () => {
                mkdirSync(dirname(target.path), { recursive: true })
                writeFileSync(target.path, wrote)
              }
            }
          )
          if (result.ok) removeEmptyDirs(dirname(target.path), target.skillDir)
          return result
        }
        const result = await apply(
          { kind: entry.kind, target: entry.target, before: wrote, after: entry.before, meta },
          {
            apply: () => writeFileAtomicText(target.path, entry.before ?? '', { expect: wrote }),
            undo: () => writeFileAtomicText(target.path, wrote)
          }
        )
        if (result.ok && (target.path.endsWith(`/${SKILL_FILE}`) || target.path.endsWith(`\\${SKILL_FILE}`))) {
          deps.index.refreshSkillFile(target.path)
          deps.notify({ name: target.name, path: target.path, type: 'change' })
        }
        return result
      }
    }
  })
}

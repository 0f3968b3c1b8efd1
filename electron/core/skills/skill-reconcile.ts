import { existsSync } from 'node:fs'
import { join } from 'node:path'
import { skillNameOf, type LedgerEntry } from '../../../shared/ledger'
import type { PendingJudge, Verdict } from '../ledger/reconcile'
import { readSkillFile } from './skill-dir-files'
import { SKILL_FILE, isInside } from './skill-paths'
import { withSkillLock } from './skill-write-support'

export interface SkillJudgeOptions {
  dataHome: string
  skillsDir: string
  locksDir: string
}

/** A ledger path under the data home, or null when it is not a plain path inside it. */
function resolveLedgerPath(dataHome: string, within: string, target: string): string | null {
  const parts = target.split('/')
  if (parts.some((part) => part === '' || part === '.' || part === '..')) return null
  const path = join(dataHome, ...parts)
  return isInside(within, path) ? path : null
}

/** The file's text (base64 for a binary file), null when it does not exist, undefined when it is a folder. */
function currentText(path: string): string | null | undefined {
  const read = readSkillFile(path)
  if (read.kind === 'text') return read.text
  if (read.kind === 'binary') return read.buffer.toString('base64')
  return read.kind === 'missing' ? null : undefined
}

/**
 * Judges skill rows a killed writer left pending by reading the file the row names: `after` there means
 * the change landed, `before` (or no file, for a create) that it did not. A delete landed when the skill
 * folder is gone and its archive is there. Rows are judged under the skill's lock, as every skill write is.
 */
export function skillPendingJudge(options: SkillJudgeOptions): PendingJudge {
  return {
    owns: (entry) => entry.kind.startsWith('skill.') && resolveLedgerPath(options.dataHome, options.skillsDir, entry.target) !== null,
    lockKey: (entry) => skillNameOf(entry) ?? entry.target,
    withTargetLock: (entry, fn, timeoutMs) => withSkillLock(options, skillNameOf(entry) ?? entry.target, fn, timeoutMs),
    judge: (entry: LedgerEntry): Verdict => {
      const path = resolveLedgerPath(options.dataHome, options.skillsDir, entry.target)
      if (!path) return 'unknown'
      const current = currentText(path)
      if (current === undefined) return 'unknown'
      if (entry.kind === 'skill.delete') {
        const archivePath = entry.meta.archivePath ? resolveLedgerPath(options.dataHome, options.skillsDir, entry.meta.archivePath) : null
        const archived = archivePath !== null && existsSync(join(archivePath, SKILL_FILE))
        if (current === null && archived) return 'landed'
        if (current === entry.before && !archived) return 'absent'
        return 'unknown'
      }
      if (current === entry.after) return 'landed'
      if (current === entry.before) return 'absent'
      return 'unknown'
    }
  }
}

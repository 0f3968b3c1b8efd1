import { join, relative, sep } from 'node:path'
import type { LedgerEntry } from '../../../shared/ledger'
import { withLock } from '../fs/lock'
import type { PendingJudge, Verdict } from '../ledger/reconcile'
import { parseEntries, readMemoryText } from './memory-file'
import { projectKeyOfLedgerTarget } from './project-scope'

export interface MemoryJudgeOptions {
  /** The data home; ledger targets are relative to it. */
  dataHome: string
  /** The memories folder. */
  dir: string
}

const FILES = ['MEMORY.md', 'USER.md']

/**
 * Judges memory rows a killed writer left pending: the file's entries hold the row's `after` (or no
 * longer hold a removed entry) when the change landed, and still hold `before` when it did not. Rows are
 * judged under the file's own lock, the one every memory write holds.
 */
export function memoryPendingJudge(options: MemoryJudgeOptions): PendingJudge {
  const byTarget = new Map(FILES.map((file) => {
    const path = join(options.dir, file)
    return [relative(options.dataHome, path).split(sep).join('/'), path]
  }))
  // Each project's PROJECT.md is judged like the two global files (its path is in the row's target).
  const pathOf = (entry: LedgerEntry): string | null =>
    byTarget.get(entry.target) ?? (projectKeyOfLedgerTarget(entry.target) ? join(options.dataHome, ...entry.target.split('/')) : null)
  return {
    owns: (entry) => entry.kind.startsWith('memory.') && pathOf(entry) !== null,
    lockKey: (entry) => entry.target,
    withTargetLock: (entry, fn, timeoutMs) => withLock(pathOf(entry)!, fn, { timeoutMs }),
    judge: (entry): Verdict => {
      let entries: string[]
      try {
        entries = parseEntries(readMemoryText(pathOf(entry)!))
      } catch {
        return 'unknown'
      }
      const hasBefore = entry.before !== null && entries.includes(entry.before)
      const hasAfter = entry.after !== null && entries.includes(entry.after)
      switch (entry.kind) {
        case 'memory.add':
          return hasAfter ? 'landed' : 'absent'
        case 'memory.remove':
          return hasBefore ? 'absent' : 'landed'
        default:
          if (hasAfter && !hasBefore) return 'landed'
          if (hasBefore && !hasAfter) return 'absent'
          return 'unknown'
      }
    }
  }
}

import { basename, join, relative, sep } from 'node:path'
import type { LedgerEntry, WriteContext } from '../../../shared/ledger'
import { LockTimeoutError, withLock } from '../fs/lock'
import type { ChangeRecorder } from '../learning/ledger'
import { dedupeEntries, type EntryChange } from './entry-ops'
import {
  hasExternalDrift,
  parseEntries,
  readMemoryText,
  removeOrphanTempFiles,
  writeDriftBackup,
  writeMemoryEntries
} from './memory-file'
import { messages } from './messages'
import type { MemoryTarget } from './types'

export interface MemoryFilesOptions {
  /** The data home; ledger targets are paths relative to it. */
  dataHome: string
  /** The memories folder holding MEMORY.md and USER.md. */
  dir: string
  limits: Record<MemoryTarget, number>
  recorder: ChangeRecorder
  lockTimeoutMs?: number
}

/** What a transaction's plan decided after seeing the entries read under the lock. */
export type PlanOutcome<F> =
  | { kind: 'apply'; entries: string[]; changes: EntryChange[] }
  | { kind: 'noop' }
  | { kind: 'fail'; failure: F }

export type TransactionOutcome<F> =
  | { kind: 'applied'; entries: string[]; recorded: LedgerEntry[] }
  | { kind: 'noop'; entries: string[] }
  | { kind: 'fail'; failure: F }
  | { kind: 'drift'; backup: string }
  | { kind: 'error'; message: string }

export interface TransactionOptions {
  /** Refuse (and back the file up) when rewriting it would drop text an outside writer added. */
  guardDrift: boolean
  write: WriteContext
  /** Stored on every ledger row the transaction records. */
  meta?: Record<string, unknown>
}

const fileNames: Record<MemoryTarget, string> = { memory: 'MEMORY.md', user: 'USER.md' }

/** The two memory files: paths, limits, and the locked read-modify-write every change goes through. */
export class MemoryFiles {
  constructor(private readonly options: MemoryFilesOptions) {}

  pathOf(target: MemoryTarget): string {
    return join(this.options.dir, fileNames[target])
  }

  fileNameOf(target: MemoryTarget): string {
    return fileNames[target]
  }

  limitOf(target: MemoryTarget): number {
    return this.options.limits[target]
  }

  /** `memories/MEMORY.md`: the target as the ledger names it (forward slashes on every platform). */
  ledgerTargetOf(target: MemoryTarget): string {
    return relative(this.options.dataHome, this.pathOf(target)).split(sep).join('/')
  }

  targetOfLedgerPath(ledgerTarget: string): MemoryTarget | null {
    if (ledgerTarget === this.ledgerTargetOf('memory')) return 'memory'
    if (ledgerTarget === this.ledgerTargetOf('user')) return 'user'
    return null
  }

  /** The live entries on disk now (no lock: writes are atomic renames, so a read never sees half a file). */
  readEntries(target: MemoryTarget): string[] {
    return parseEntries(readMemoryText(this.pathOf(target)))
  }

  /**
   * Read-modify-write under the target's cross-process lock: re-reads the file, lets `plan` decide,
   * writes atomically and records one ledger row per change, all before the lock is released,
   * so concurrent writers (other windows, the CLI, the review worker) never lose each other's entries.
   */
  async transact<F>(
    target: MemoryTarget,
    options: TransactionOptions,
    plan: (entries: string[]) => PlanOutcome<F>
  ): Promise<TransactionOutcome<F>> {
    const path = this.pathOf(target)
    const fileName = basename(path)
    try {
      return await withLock(
        path,
        async (): Promise<TransactionOutcome<F>> => {
          let raw: string
          try {
            raw = readMemoryText(path)
          } catch (error) {
            return { kind: 'error', message: messages.readFailed(fileName, reasonOf(error)) }
          }
          if (options.guardDrift && hasExternalDrift(raw, this.limitOf(target))) {
            return { kind: 'drift', backup: backupOrNote(path, raw) }
          }
          const entries = parseEntries(raw)
          const outcome = plan(entries)
          if (outcome.kind === 'fail') return outcome
          if (outcome.kind === 'noop') return { kind: 'noop', entries }
          const next = dedupeEntries(outcome.entries)
          removeOrphanTempFiles(path)
          try {
            await writeMemoryEntries(path, next)
          } catch (error) {
            return { kind: 'error', message: messages.writeFailed(fileName, reasonOf(error)) }
          }
          const recorded = outcome.changes.map((change) =>
            this.options.recorder.record(
              { ...change, target: this.ledgerTargetOf(target), meta: options.meta },
              options.write
            )
          )
          return { kind: 'applied', entries: next, recorded }
        },
        { timeoutMs: this.options.lockTimeoutMs }
      )
    } catch (error) {
      if (error instanceof LockTimeoutError) return { kind: 'error', message: messages.lockTimeout(fileName) }
      throw error
    }
  }
}

function reasonOf(error: unknown): string {
  const code = (error as NodeJS.ErrnoException).code
  return code ?? (error as Error).message ?? String(error)
}

function backupOrNote(path: string, raw: string): string {
  try {
    return writeDriftBackup(path, raw)
  } catch (error) {
    return `${path}.bak (BACKUP FAILED: ${reasonOf(error)} — file unchanged on disk)`
  }
}

import { readlinkSync } from 'node:fs'
import { basename, dirname, join, relative, sep } from 'node:path'
import type { LedgerEntry, WriteContext } from '../../../shared/ledger'
import { StaleWriteError, removeOrphanTempFiles as removeTempFilesOf, writeFileAtomicText } from '../fs/atomic'
import { LockLostError, LockTimeoutError, withLock } from '../fs/lock'
import { symlinkBelow } from '../fs/symlinks'
import { abortQuietly, beginChanges, type BatchChangeRecorder, type PendingChanges } from '../ledger/recorder'
import { dedupeEntries, type EntryChange } from './entry-ops'
import {
  hasExternalDrift,
  joinEntries,
  parseEntries,
  readMemoryFile,
  readMemoryText,
  type MemoryFileContent,
  restoreMemoryFile,
  writeDriftBackup
} from './memory-file'
import { messages } from './messages'
import type { MemoryLimits, MemoryTarget } from './types'
import { NoProjectError, PROJECT_FILE, prepareProjectFolder, projectFolderOf, type ProjectScope } from './project-scope'

export interface MemoryFilesOptions {
  /** The data home; ledger targets are paths relative to it. */
  dataHome: string
  /** The memories folder holding MEMORY.md and USER.md. */
  dir: string
  /** Read on every use, so a settings change applies to the next call without reopening. */
  limits: () => MemoryLimits
  /** Records all rows of one change or none, so a file change never outlives a failed ledger write. */
  recorder: BatchChangeRecorder
  lockTimeoutMs?: number
  /** The workspace whose PROJECT.md the `project` target is; without it that target is refused (NoProjectError). */
  project?: ProjectScope | null
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

const fileNames: Record<MemoryTarget, string> = { memory: 'MEMORY.md', user: 'USER.md', project: PROJECT_FILE }

/** The memory files (MEMORY.md, USER.md and one workspace's PROJECT.md): paths, limits, and the locked read-modify-write every change goes through. */
export class MemoryFiles {
  private lastGoodLimits: MemoryLimits | null = null

  constructor(private readonly options: MemoryFilesOptions) {}

  /** The workspace this store's `project` target belongs to, or null. */
  get project(): ProjectScope | null {
    return this.options.project ?? null
  }

  /** Throws {@link NoProjectError} for `project` when no workspace is known. */
  pathOf(target: MemoryTarget): string {
    if (target !== 'project') return join(this.options.dir, fileNames[target])
    const project = this.options.project
    if (!project) throw new NoProjectError()
    return join(projectFolderOf(this.options.dir, project.key), PROJECT_FILE)
  }

  fileNameOf(target: MemoryTarget): string {
    return fileNames[target]
  }

  /**
   * The limit now. If the settings cannot be read for a moment (config.json mid-edit by hand), the
   * last limits read are used, so memory keeps working; the settings error surfaces where settings are shown.
   */
  limitOf(target: MemoryTarget): number {
    let limits: MemoryLimits
    try {
      limits = this.options.limits()
    } catch (error) {
      if (!this.lastGoodLimits) throw error
      return this.lastGoodLimits[target]
    }
    this.lastGoodLimits = limits
    return limits[target]
  }

  /** `memories/MEMORY.md`: the target as the ledger names it (forward slashes on every platform). */
  ledgerTargetOf(target: MemoryTarget): string {
    return relative(this.options.dataHome, this.pathOf(target)).split(sep).join('/')
  }

  targetOfLedgerPath(ledgerTarget: string): MemoryTarget | null {
    if (ledgerTarget === this.ledgerTargetOf('memory')) return 'memory'
    if (ledgerTarget === this.ledgerTargetOf('user')) return 'user'
    if (this.options.project && ledgerTarget === this.ledgerTargetOf('project')) return 'project'
    return null
  }

  /** The live entries on disk now (no lock: writes are atomic renames, so a read never sees half a file). */
  readEntries(target: MemoryTarget): string[] {
    if (target === 'project' && !this.options.project) throw new NoProjectError()
    return parseEntries(readMemoryText(this.pathOf(target)))
  }

  /**
   * Read-modify-write under the target's cross-process lock: re-reads the file, lets `plan` decide,
   * and writes atomically, all before the lock is released, so concurrent writers (other windows, the
   * CLI, the review worker) never lose each other's entries. The change's ledger rows are written
   * pending first, then the file, then the rows are committed: a crash in between leaves rows the next
   * start reconciles against the file, and a failed commit puts the file back, so every change on disk
   * has its rows and can be reverted. If this process was paused long enough to lose the lock, its
   * write from the stale read is refused and the whole change re-applied once on a fresh read.
   */
  async transact<F>(
    target: MemoryTarget,
    options: TransactionOptions,
    plan: (entries: string[]) => PlanOutcome<F>
  ): Promise<TransactionOutcome<F>> {
    if (target === 'project' && !this.options.project) return { kind: 'error', message: new NoProjectError().message }
    const path = this.pathOf(target)
    const fileName = basename(path)
    if (target === 'project' && this.options.project) prepareProjectFolder(this.options.dir, this.options.project)
    // Checked before the lock too: its lock folder would be made through a linked memories folder.
    const link = this.symlinkOf(target)
    if (link) return { kind: 'error', message: symlinkMessage(fileName, link) }
    for (let attempt = 0; ; attempt++) {
      try {
        return await withLock(path, () => this.transactLocked(target, options, plan), { timeoutMs: this.options.lockTimeoutMs })
      } catch (error) {
        if (error instanceof LockTimeoutError) return { kind: 'error', message: messages.lockTimeout(fileName) }
        if (isLostWrite(error)) {
          if (attempt === 0) continue
          return { kind: 'error', message: lockLostMessage(fileName) }
        }
        throw error
      }
    }
  }

  /**
   * The symlink a write of `target` would go through (the memories folder or the file itself), or null.
   * Cairn never writes memory (nor its backups and temp files) through a symlink it did not create.
   */
  private symlinkOf(target: MemoryTarget): string | null {
    return symlinkBelow(this.options.dataHome, this.pathOf(target))
  }

  /** One attempt of {@link transact}, holding the lock. Throws a lost write (see isLostWrite) for transact to retry. */
  private async transactLocked<F>(
    target: MemoryTarget,
    options: TransactionOptions,
    plan: (entries: string[]) => PlanOutcome<F>
  ): Promise<TransactionOutcome<F>> {
    const path = this.pathOf(target)
    const fileName = basename(path)
    const link = this.symlinkOf(target)
    if (link) return { kind: 'error', message: symlinkMessage(fileName, link) }
    let file: MemoryFileContent
    try {
      file = readMemoryFile(path)
    } catch (error) {
      return { kind: 'error', message: messages.readFailed(fileName, reasonOf(error)) }
    }
    const raw = file.text
    if (options.guardDrift && hasExternalDrift(raw, this.limitOf(target))) {
      return { kind: 'drift', backup: backupOrNote(path, raw) }
    }
    const entries = parseEntries(raw)
    const outcome = plan(entries)
    if (outcome.kind === 'fail') return outcome
    if (outcome.kind === 'noop') return { kind: 'noop', entries }
    const next = dedupeEntries(outcome.entries)
    // Holding the lock, no live writer owns a temp file of this one.
    removeTempFilesOf(dirname(path), { forFile: fileName, maxAgeMs: 0 })
    const ledgerTarget = this.ledgerTargetOf(target)
    let pending: PendingChanges
    try {
      pending = beginChanges(
        this.options.recorder,
        outcome.changes.map((change) => ({ ...change, target: ledgerTarget, meta: { store: target, ...options.meta } })),
        options.write
      )
    } catch (error) {
      return { kind: 'error', message: notRecordedMessage(fileName, errorText(error)) }
    }
    try {
      // Refused right before the rename if the lock was lost or the file is no longer what was read.
      await writeFileAtomicText(path, joinEntries(next), { expect: file.bytes })
    } catch (error) {
      abortQuietly(pending)
      if (isLostWrite(error)) throw error
      return { kind: 'error', message: messages.writeFailed(fileName, reasonOf(error)) }
    }
    let recorded: LedgerEntry[]
    try {
      recorded = pending.commit()
    } catch (error) {
      const message = await restoreAfterRecordFailure(path, file.bytes, errorText(error))
      abortQuietly(pending)
      return { kind: 'error', message }
    }
    return { kind: 'applied', entries: next, recorded }
  }
}

/** A write refused because the lock was lost while paused, or the file changed under it: nothing was written. */
function isLostWrite(error: unknown): boolean {
  return error instanceof LockLostError || error instanceof StaleWriteError
}

function lockLostMessage(fileName: string): string {
  return `Could not save to ${fileName}: another process took over the memory lock while this write was paused; nothing was written. Try the same call again.`
}

function notRecordedMessage(fileName: string, reason: string): string {
  return `Nothing was changed: the change to ${fileName} could not be recorded in the learning ledger (${reason}), so it was not made. Try the same call again in a moment; if it keeps failing, check that state.db is writable and the disk is not full.`
}

function symlinkMessage(fileName: string, link: string): string {
  let to = ''
  try {
    to = ` (it points to ${readlinkSync(link)})`
  } catch {
    // Gone meanwhile: the message still names it.
  }
  return `Nothing was changed: ${link} is a symlink${to}, and Cairn never writes ${fileName} through a symlink it did not create. ` +
    'Replace the link with a regular file or folder (or remove it) to keep using memory.'
}

function reasonOf(error: unknown): string {
  const code = (error as NodeJS.ErrnoException).code
  return code ?? (error as Error).message ?? String(error)
}

/** `database is locked (SQLITE_BUSY)`: the message says what happened, the code helps a bug report. */
function errorText(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error)
  const code = (error as NodeJS.ErrnoException).code
  return code && !message.includes(code) ? `${message} (${code})` : message
}

/** Puts the file back after its ledger rows could not be written; says whether that worked. */
async function restoreAfterRecordFailure(path: string, previous: Buffer | null, reason: string): Promise<string> {
  const fileName = basename(path)
  try {
    await restoreMemoryFile(path, previous)
  } catch (error) {
    return messages.restoreFailed(fileName, reason, reasonOf(error))
  }
  return messages.recordFailed(fileName, reason)
}

function backupOrNote(path: string, raw: string): string {
  try {
    return writeDriftBackup(path, raw)
  } catch (error) {
    return `${path}.bak (BACKUP FAILED: ${reasonOf(error)} — file unchanged on disk)`
  }
}

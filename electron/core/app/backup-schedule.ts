import type { BackupStatus } from '../../../shared/ipc/contract-backup'
import { createBackup, listBackups, pruneBackups, resolveBackupFolder } from '../backup'
import type { AppHome } from './app-home'
import type { ChatClock } from './chat-manager'

/** How often the app looks whether a scheduled backup is due; `backup.everyDays` is in days. */
export const BACKUP_CHECK_MS = 60 * 60_000
const DAY_MS = 24 * 60 * 60_000

export interface BackupScheduleDeps {
  /** The data home backed up: its folder, state.db (copied consistently) and the `backup` settings. */
  core: Pick<AppHome, 'paths' | 'config' | 'db'>
  /** Cairn's version, recorded in each manifest. */
  version: string
  clock: ChatClock
  /** Called with the new status whenever a backup starts or ends, or the schedule changes. */
  changed: (status: BackupStatus) => void
}

/**
 * The app's scheduled backups (`backup.everyDays`, `backup.keep`, `backup.folder`): checked at start
 * and every hour, a backup is made when the newest one in the folder is `everyDays` old, then the
 * oldest are removed down to `keep`. The outcome (or why it failed) is in {@link status}.
 */
export class BackupSchedule {
  private running: Promise<BackupStatus> | null = null
  private lastError: string | null = null
  private closed = false
  private readonly stopTimer: () => void
  /** The check at start, after the constructor returns: the app's window is never held up by a backup. */
  private readonly firstCheck: NodeJS.Timeout

  constructor(private readonly deps: BackupScheduleDeps) {
    this.stopTimer = deps.clock.every(BACKUP_CHECK_MS, () => void this.check())
    this.firstCheck = setTimeout(() => void this.check(), 0)
    this.firstCheck.unref?.()
  }

  status(): BackupStatus {
    const { everyDays, keep, folder } = this.settings()
    const last = listBackups(folder).at(-1) ?? null
    const nextDueAt = everyDays === 0 ? null : last ? last.at + everyDays * DAY_MS : this.deps.clock.now()
    const defaultFolder = resolveBackupFolder(this.deps.core.paths.root, '')
    return { everyDays, keep, folder, defaultFolder, last, nextDueAt, running: this.running !== null, lastError: this.lastError }
  }

  /** Makes a backup when one is due (none while another runs); resolves with the status after it. */
  async check(): Promise<BackupStatus> {
    const status = this.status()
    if (this.closed || status.nextDueAt === null || status.nextDueAt > this.deps.clock.now()) return status
    return this.runNow()
  }

  /** Makes a backup now (joins the one running), then prunes the folder to `keep`. */
  runNow(): Promise<BackupStatus> {
    this.running ??= this.backUp().finally(() => {
      this.running = null
      this.deps.changed(this.status())
    })
    this.deps.changed(this.status())
    return this.running.then(() => this.status())
  }

  async close(): Promise<void> {
    this.closed = true
    clearTimeout(this.firstCheck)
    this.stopTimer()
    // A backup in flight finishes (or fails) cleanly: its staging folder and temp archive are removed.
    await this.running
  }

  private async backUp(): Promise<BackupStatus> {
    const { core, version, clock } = this.deps
    const { keep, folder } = this.settings()
    try {
      await createBackup({ home: core.paths.root, folder, db: core.db, cairnVersion: version, now: new Date(clock.now()) })
      pruneBackups(folder, keep)
      this.lastError = null
    } catch (error) {
      this.lastError = (error as Error).message
    }
    return this.status()
  }

  private settings(): { everyDays: number; keep: number; folder: string } {
    const { everyDays, keep, folder } = this.deps.core.config.get().backup
    return { everyDays, keep, folder: resolveBackupFolder(this.deps.core.paths.root, folder) }
  }
}

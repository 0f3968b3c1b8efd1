import { hostname } from 'node:os'
import type { SyncPhase, SyncProblemCode, SyncSetupResult, SyncStatus } from '../../../shared/ipc/contract-sync'
import { ProposalStore } from '../ledger/proposals'
import type { ReviewHost } from '../learning/host/review-host'
import { leaveSync, readSyncState, runSync, setupSync, sharedLibraries, SyncError, type SyncErrorCode, type SyncHome, type SyncReport, type SyncSetup } from '../sync'
import type { SecretStore } from './app-context'
import type { ChatClock } from './chat-manager'

/** How often the app looks whether `sync.everyMinutes` have passed since the last sync. */
export const SYNC_CHECK_MS = 60_000
/** The secret the remote's token is kept as. */
export const SYNC_TOKEN_SECRET = 'sync.token'

// The contract's codes are the engine's: a new engine code fails here until the contract words it.
const sameCodes: [SyncErrorCode] extends [SyncProblemCode] ? ([SyncProblemCode] extends [SyncErrorCode] ? true : never) : never = true
void sameCodes

export interface SyncScheduleDeps {
  core: SyncHome
  secrets: Pick<SecretStore, 'getSecret' | 'setSecret'>
  /** Reviews that changed something are followed by a sync. */
  host: Pick<ReviewHost, 'events'>
  clock: ChatClock
  /** Called with the new status when a sync starts, moves to another phase or ends, or the settings change. */
  changed: (status: SyncStatus) => void
  /** A sync brought memory or skills in (skills and the ledger announce themselves; memory is told here). */
  broughtIn: (report: SyncReport) => void
}

/**
 * The app's syncs of `memories/` and `skills/` (when `sync.remote` is set; and the team libraries of
 * `skills.shared`, when listed): once at start (after the
 * constructor returns, so the window is never held up), after each review that changed something,
 * every `sync.everyMinutes`, and on demand. One at a time: a request while one runs joins it. Another
 * process syncing the same home (`busy`) is not a problem to show; other failures are kept by the
 * engine and shown from {@link status}.
 */
export class SyncSchedule {
  private running: Promise<void> | null = null
  /** Whether `running` is a sync (which a request joins) rather than setting up or leaving (which it waits for). */
  private runningSync = false
  /** The sync that runs after the current one, for writes made while it ran. */
  private followUp: Promise<SyncStatus> | null = null
  private phase: SyncPhase | null = null
  private lastReport: SyncStatus['lastReport'] = null
  /** When this app last started a sync (the timer counts from it); null before the first. */
  private lastStartedAt: number | null = null
  private closed = false
  private readonly stops: Array<() => void> = []
  private readonly firstSync: NodeJS.Timeout

  constructor(private readonly deps: SyncScheduleDeps) {
    this.stops.push(
      deps.clock.every(SYNC_CHECK_MS, () => void this.check()),
      deps.host.events.on((event) => {
        if (event.type === 'review_finished' && event.outcome.entries.length > 0) void this.syncIfSetUp({ includeLatest: true })
      })
    )
    this.firstSync = setTimeout(() => void this.syncIfSetUp(), 0)
    this.firstSync.unref?.()
  }

  status(): SyncStatus {
    const { core } = this.deps
    const config = core.config.get()
    const state = readSyncState(core.paths.root, config)
    const waiting = new ProposalStore(core.db).list({ states: ['pending'], limit: 10_000 }).filter((p) => p.cause === 'sync_conflict' || p.cause === 'sync_overflow')
    return {
      remote: state.remote,
      branch: state.branch,
      deviceName: state.deviceName,
      hostName: hostname(),
      everyMinutes: config.sync.everyMinutes,
      hasToken: this.token() !== null,
      running: this.running !== null,
      phase: this.running ? this.phase : null,
      lastSync: state.lastSync,
      lastError: state.lastError,
      lastReport: this.lastReport,
      waitingInInbox: waiting.length
    }
  }

  /** Syncs when `sync.everyMinutes` have passed since the last sync this app started. */
  async check(): Promise<SyncStatus> {
    const every = this.deps.core.config.get().sync.everyMinutes
    const due = every > 0 && (this.lastStartedAt === null || this.deps.clock.now() - this.lastStartedAt >= every * 60_000)
    return due ? this.syncIfSetUp() : this.status()
  }

  /** Syncs now when sync is set up or team libraries are listed (see {@link runNow}); resolves with the status after it. */
  async syncIfSetUp(options: { includeLatest?: boolean } = {}): Promise<SyncStatus> {
    const config = this.deps.core.config.get()
    if (this.closed || (!config.sync.remote && sharedLibraries(config.skills.shared).libraries.length === 0)) return this.status()
    return this.runNow(options)
  }

  /**
   * Syncs now; a failure is in the status's `lastError`, never thrown. While a sync runs, the request
   * joins it, or with `includeLatest` (a review has just written) runs once more after it, since the
   * running sync may have committed before that write.
   */
  runNow(options: { includeLatest?: boolean } = {}): Promise<SyncStatus> {
    if (this.running && this.runningSync) {
      if (!options.includeLatest) return this.running.then(() => this.status())
      this.followUp ??= this.running.then(() => {
        this.followUp = null
        return this.runNow()
      })
      return this.followUp
    }
    return this.exclusive(() => this.syncOnce(), true).then(() => this.status())
  }

  /**
   * Sets sync up with `remote` and syncs once. The token is kept only when that first sync succeeded;
   * on failure the engine has put the settings back and nothing is set up.
   */
  async setup(setup: SyncSetup, token: string | undefined): Promise<SyncSetupResult> {
    let failure: SyncError | null = null
    await this.exclusive(async () => {
      try {
        const report = await setupSync(this.deps.core, setup, this.syncOptions(token ?? this.token()))
        if (token !== undefined) await this.deps.secrets.setSecret?.(SYNC_TOKEN_SECRET, token)
        this.finished(report)
      } catch (error) {
        failure = error instanceof SyncError ? error : new SyncError('failed', (error as Error).message)
      }
    })
    const status = this.status()
    const failed = failure as SyncError | null
    return failed ? { ok: false, code: failed.code, error: failed.message, key: failed.key, params: failed.params, status } : { ok: true, status }
  }

  async setToken(token: string | null): Promise<SyncStatus> {
    await this.deps.secrets.setSecret?.(SYNC_TOKEN_SECRET, token)
    return this.announce()
  }

  async setSchedule(everyMinutes: number): Promise<SyncStatus> {
    await this.deps.core.config.update({ sync: { everyMinutes } })
    return this.announce()
  }

  /** Stops syncing (after the running sync): the git copy and the token go, memories and skills stay. */
  async leave(): Promise<SyncStatus> {
    await this.exclusive(async () => {
      await leaveSync(this.deps.core)
      await this.deps.secrets.setSecret?.(SYNC_TOKEN_SECRET, null)
      this.lastReport = null
    })
    return this.status()
  }

  async close(): Promise<void> {
    this.closed = true
    clearTimeout(this.firstSync)
    for (const stop of this.stops.splice(0)) stop()
    // A sync in flight finishes: the engine leaves both sides consistent even when killed, but a clean end is cheaper.
    await this.running
  }

  /** Runs `task` once nothing else runs (a sync asked for while one runs joins it instead: see {@link runNow}). */
  private async exclusive(task: () => Promise<void>, isSync = false): Promise<void> {
    while (this.running) await this.running.catch(() => {})
    if (isSync && this.closed) return
    this.phase = null
    this.runningSync = isSync
    this.running = task().finally(() => {
      this.running = null
      this.phase = null
      this.deps.changed(this.status())
    })
    this.deps.changed(this.status())
    return this.running
  }

  private async syncOnce(): Promise<void> {
    try {
      this.finished(await runSync(this.deps.core, this.syncOptions(this.token())))
    } catch (error) {
      // The engine kept the failure for the status (except `busy`: another process is syncing, which is fine).
      if (!(error instanceof SyncError)) throw error
    }
  }

  private syncOptions(token: string | null) {
    this.lastStartedAt = this.deps.clock.now()
    return {
      token,
      // A team library's own token (`sync.shared.<name>.token`), where the user kept one.
      sharedToken: (library: string) => this.deps.secrets.getSecret?.(`sync.shared.${library}.token`) ?? null,
      now: () => this.deps.clock.now(),
      onProgress: ({ phase }: { phase: SyncPhase }) => {
        if (phase === this.phase) return
        this.phase = phase
        this.deps.changed(this.status())
      }
    }
  }

  private finished(report: SyncReport): void {
    const failedLibraries = report.shared.filter((library) => library.outcome === 'failed').map((library) => ({ name: library.name, message: library.error?.message ?? '' }))
    this.lastReport = { syncId: report.syncId, overflow: report.overflow, problems: report.problems, ...(failedLibraries.length ? { failedLibraries } : {}) }
    if (report.received > 0 || report.conflicts.length > 0) this.deps.broughtIn(report)
  }

  private token(): string | null {
    return this.deps.secrets.getSecret?.(SYNC_TOKEN_SECRET) ?? null
  }

  private announce(): SyncStatus {
    const status = this.status()
    this.deps.changed(status)
    return status
  }
}


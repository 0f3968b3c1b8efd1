import { errorWordsOf, KeyedError } from '../../../shared/keyed-error'
import { existsSync } from 'node:fs'
import type { ImportActivity, ImportSourceId, ImportSourceInfo } from '../../../shared/ipc/contract-import'
import {
  defaultClaudeCodeHome,
  defaultHermesHome,
  defaultOpenClawWorkspace,
  importChatExport,
  importClaudeCode,
  importHermes,
  importOpenClaw,
  type ImportHome,
  type ImportProgress,
  type ImportReport
} from '../import'
import { ImportedLearning } from '../learning/host/learn-imported'
import type { LearningLoop } from '../learning/host/learning-loop'
import type { ReviewHost } from '../learning/host/review-host'
import type { AppHome } from './app-home'

interface ImporterOptions {
  path: string
  dryRun: boolean
  onProgress: (progress: ImportProgress) => void
}

/** One source the app can import from: what its location is, where it usually is, and the importer. */
interface Importer {
  pick: ImportSourceInfo['pick']
  defaultPath(env: NodeJS.ProcessEnv): string | null
  run(core: ImportHome, options: ImporterOptions): Promise<ImportReport>
}

/** The sources Settings → Data offers, in this order. A new importer is one line here. */
const IMPORTERS: Partial<Record<ImportSourceId, Importer>> = {
  hermes: { pick: 'folder', defaultPath: defaultHermesHome, run: (core, options) => importHermes(core, options) },
  openclaw: { pick: 'folder', defaultPath: defaultOpenClawWorkspace, run: (core, options) => importOpenClaw(core, options) },
  'claude-code': { pick: 'folder', defaultPath: defaultClaudeCodeHome, run: (core, options) => importClaudeCode(core, options) },
  chatgpt: { pick: 'file', defaultPath: () => null, run: (core, options) => importChatExport(core, { ...options, app: 'chatgpt' }) },
  claude: { pick: 'file', defaultPath: () => null, run: (core, options) => importChatExport(core, { ...options, app: 'claude' }) }
}

/** Progress events of a large import are at most this often (the last one always goes). */
const PROGRESS_EVERY_MS = 200

/** An import was asked for while another runs. */
export class ImportBusyError extends Error {
  constructor() {
    super('An import is already running; wait for it to finish.')
    this.name = 'ImportBusyError'
  }
}

/** A source this build has no importer for. */
export class UnknownImportSourceError extends KeyedError<'import.unknown_source'> {
  constructor(readonly source: string) {
    super('import.unknown_source', { source })
    this.name = 'UnknownImportSourceError'
  }
}

export interface AppImportsDeps {
  /** What imports write to, and the conversations learning from imports reads. */
  core: ImportHome & Pick<AppHome, 'sessions'>
  loop: Pick<LearningLoop, 'reviewNow'>
  host: Pick<ReviewHost, 'wait' | 'events'>
  env: NodeJS.ProcessEnv
  /** Called with the activity whenever an import or learning from imports moves on. */
  changed: (activity: ImportActivity) => void
  /** The conversations list changed (an import brought some in). */
  sessionsChanged: () => void
  now?: () => number
}

/**
 * The app's imports: previews, one import at a time in the background with its progress and
 * result, and learning from imported conversations. What Settings → Data shows is {@link activity}.
 */
export class AppImports {
  readonly learning: ImportedLearning
  private running: ImportActivity['running'] = null
  private last: ImportActivity['last'] = null
  private job: Promise<void> | null = null
  private lastProgressAt = 0
  private readonly now: () => number

  constructor(private readonly deps: AppImportsDeps) {
    this.now = deps.now ?? Date.now
    this.learning = new ImportedLearning({
      db: deps.core.db,
      sessions: deps.core.sessions,
      loop: deps.loop,
      host: deps.host,
      learningOn: () => this.learningOn(),
      changed: () => this.emit(),
      now: this.now
    })
  }

  sources(): ImportSourceInfo[] {
    return Object.entries(IMPORTERS).map(([id, importer]) => {
      const defaultPath = importer.defaultPath(this.deps.env)
      return { id: id as ImportSourceId, pick: importer.pick, defaultPath, found: defaultPath !== null && existsSync(defaultPath) }
    })
  }

  pickKind(source: ImportSourceId): ImportSourceInfo['pick'] {
    return this.importer(source).pick
  }

  /** What an import would bring in (a dry run: nothing is written). */
  preview(source: ImportSourceId, path: string): Promise<ImportReport> {
    return this.importer(source).run(this.deps.core, { path, dryRun: true, onProgress: () => {} })
  }

  /** Starts an import in the background; its end (report or error) is in the activity's `last`. */
  start(source: ImportSourceId, path: string): ImportActivity {
    if (this.job) throw new ImportBusyError()
    const importer = this.importer(source)
    this.running = { source, path, startedAt: this.now(), phase: 'starting', done: 0, total: null }
    this.job = this.runImport(importer, source, path).finally(() => {
      this.job = null
    })
    this.emit()
    return this.activity()
  }

  /** Resolves when the running import (if any) has ended. */
  async settled(): Promise<void> {
    await this.job
  }

  isRunning(): boolean {
    return this.job !== null
  }

  activity(): ImportActivity {
    return { running: this.running, last: this.last, learning: this.learning.status(), unreviewed: this.learning.unreviewed(), learningOn: this.learningOn() }
  }

  learningOn(): boolean {
    const { learning } = this.deps.core.config.get()
    return learning.enabled && learning.mode !== 'off'
  }

  /** Announces the activity (after an undo, say, which changes what is left to learn from). */
  emit(): void {
    this.deps.changed(this.activity())
  }

  /** Waits for a running import; learning from imports stops after the review under way. */
  async close(): Promise<void> {
    this.learning.cancel()
    await this.job
  }

  private importer(source: ImportSourceId): Importer {
    const importer = IMPORTERS[source]
    if (!importer) throw new UnknownImportSourceError(source)
    return importer
  }

  private async runImport(importer: Importer, source: ImportSourceId, path: string): Promise<void> {
    let report: ImportReport | null = null
    let error: string | null = null
    let words: ReturnType<typeof errorWordsOf> = null
    try {
      report = await importer.run(this.deps.core, { path, dryRun: false, onProgress: (progress) => this.progressed(progress) })
    } catch (caught) {
      error = (caught as Error).message
      words = errorWordsOf(caught)
    }
    this.running = null
    this.last = { source, path, finishedAt: this.now(), report, error, errorKey: words?.key ?? null, errorParams: words?.params ?? null }
    if (report?.counts.sessions.added) this.deps.sessionsChanged()
    this.emit()
  }

  private progressed(progress: ImportProgress): void {
    if (!this.running) return
    const phaseChanged = this.running.phase !== progress.phase
    this.running = { ...this.running, phase: progress.phase, done: progress.done, total: progress.total ?? null }
    const at = this.now()
    if (!phaseChanged && at - this.lastProgressAt < PROGRESS_EVERY_MS) return
    this.lastProgressAt = at
    this.emit()
  }
}

import { existsSync } from 'node:fs'
import type { RevertResult } from '../../shared/ledger'
import { AttachmentStore } from './attachments'
import { ConfigStore, type SettingsStore } from './config/config-store'
import { openStateDb, type StateDb } from './db/state-db'
import { ensureHome, expandTilde, type HomePaths } from './config/home'
import { removeOrphanTempFiles } from './fs/atomic'
import { Ledger } from './ledger/ledger'
import { reconcileLedger, type PendingJudge, type ReconcileResult } from './ledger/reconcile'
import { revertLedgerEntry, type RevertOptions } from './ledger/revert'
import { MemoryStore, createMemoryTool, memoryLimitsFrom } from './memory'
import type { MemoryTarget } from './memory/types'
import { memoryEntryDates } from './memory/entry-history'
import { MemoryArchive } from './memory/memory-archive'
import { MemoryConfirmations } from './memory/memory-confirmations'
import { MemoryHidden } from './memory/memory-hidden'
import { MemoryPins } from './memory/memory-pins'
import { memoryPendingJudge } from './memory/memory-reconcile'
import { SessionStore, createSessionSearchTool } from './sessions'
import type { SessionSearchOptions } from './sessions/session-search-tool'
import { SkillStore, createSkillTools } from './skills'
import { SkillFlags } from './skills/skill-flags'
import { skillPendingJudge } from './skills/skill-reconcile'
import type { ToolDef } from './tools/types'

/** What the learning tools need from the conversation they are offered in: what session_search takes. */
/** `workspace`: the conversation's, whose project memory its memory tool writes (none: target 'project' is refused). */
export type LearningToolOptions = SessionSearchOptions & { workspace?: string }

export interface OpenCoreOptions {
  /** Absolute data home (see resolveHome). */
  home: string
  /** better-sqlite3 binary for a non-Node runtime (the Electron app). */
  nativeBinding?: string
  /** Watch skill folders for outside edits (the app and long-running processes; not one-shot CLI calls). */
  watchSkills?: boolean
  /** Settings backend; defaults to a {@link ConfigStore} on `config.json` (the app passes its own, which it watches). */
  settings?: SettingsStore
  /** How long state.db waits on another process's lock (see openStateDb); the app's main process keeps it short. */
  busyTimeoutMs?: number
}

/**
 * Cairn's Electron-free core for one data home: settings, the state database, the learning ledger
 * and the three learning stores. The CLI, the app's main process and the review worker each open one.
 */
export class CairnCore {
  readonly paths: HomePaths
  readonly config: SettingsStore
  readonly db: StateDb
  readonly ledger: Ledger
  readonly memory: MemoryStore
  readonly skills: SkillStore
  readonly sessions: SessionStore
  /** Skills the user pinned or disabled. */
  readonly skillFlags: SkillFlags
  /** Memory entries the user pinned. */
  readonly memoryPins: MemoryPins
  /** When memory entries were last confirmed (a writer saved them again). */
  readonly memoryConfirmations: MemoryConfirmations
  /** Memory entries the user asked Cairn not to bring up (kept in the file, left out of what the model reads). */
  readonly memoryHidden: MemoryHidden
  /** The unbounded archive below the core memory files (state.db): overflow, retired and superseded entries. */
  readonly archive: MemoryArchive
  /** Files attached to user messages (under `attachments/`, their text in state.db). */
  readonly attachments: AttachmentStore
  /** The better-sqlite3 binary this core opened state.db with (the review worker opens it the same way). */
  readonly nativeBinding: string | undefined
  /** How the memory and skill stores judge ledger rows a crash left pending (see reconcileLedger). */
  readonly ledgerJudges: readonly PendingJudge[]
  /** What reconciling the ledger at open settled (or why it could not run). */
  startupReconcile: ReconcileResult | { error: string } | null = null

  private constructor(options: OpenCoreOptions) {
    this.paths = ensureHome(options.home)
    this.nativeBinding = options.nativeBinding
    this.config = options.settings ?? new ConfigStore(this.paths.configFile)
    const config = this.config.get()
    this.db = openStateDb(this.paths.stateDb, { nativeBinding: options.nativeBinding, busyTimeoutMs: options.busyTimeoutMs })
    this.ledger = new Ledger(this.db)
    this.skillFlags = new SkillFlags(this.db)
    this.memoryPins = new MemoryPins(this.db)
    this.memoryConfirmations = new MemoryConfirmations(this.db)
    this.memoryHidden = new MemoryHidden(this.db)
    // A hidden entry stays hidden through every replace, whoever made it; a removed one's mark goes with it.
    this.ledger.onRecord((entry) => {
      if (!entry.kind.startsWith('memory.') || entry.before === null) return
      const { store } = entry.meta as { store: MemoryTarget }
      if (entry.kind === 'memory.replace' && entry.after !== null) this.memoryHidden.rename(store, entry.before, entry.after)
      if (entry.kind === 'memory.remove') this.memoryHidden.forget(store, entry.before)
    })
    // A pin follows its entry through every replace, whoever made it (the chat, a review, an approval,
    // the user's edit, a revert or a restore), so a pinned fact stays pinned as its wording changes.
    this.ledger.onRecord((entry) => {
      if (entry.kind !== 'memory.replace' || entry.before === null || entry.after === null) return
      const { store } = entry.meta as { store: 'memory' | 'user' }
      this.memoryPins.rename(store, entry.before, entry.after)
    })
    this.archive = new MemoryArchive(this.db, this.ledger)
    this.memory = new MemoryStore({
      dataHome: this.paths.root,
      dir: this.paths.memoriesDir,
      // Read on every call, so a settings change applies to the open core without a restart.
      limits: () => memoryLimitsFrom(this.config.get().memory),
      recorder: this.ledger,
      hidden: this.memoryHidden,
      archive: this.archive,
      dating: {
        datesOf: (target, entries) => memoryEntryDates(this, target, entries),
        confirm: (target, entry) => this.memoryConfirmations.confirm(target, entry)
      }
    })
    this.skills = new SkillStore({
      dataHome: this.paths.root,
      skillsDir: this.paths.skillsDir,
      // The team libraries' folder is a root even before the first pull creates it (a missing root is skipped).
      extraDirs: [...config.skills.extraDirs.map(expandTilde).filter((dir) => existsSync(dir)), this.paths.sharedSkillsDir],
      locksDir: this.paths.locksDir,
      db: this.db,
      recorder: this.ledger
    })
    this.skills.load()
    this.sessions = new SessionStore(this.db)
    this.attachments = new AttachmentStore(this.paths.root, this.db)
    this.ledgerJudges = [
      memoryPendingJudge({ dataHome: this.paths.root, dir: this.paths.memoriesDir }),
      skillPendingJudge({ dataHome: this.paths.root, skillsDir: this.paths.skillsDir, locksDir: this.paths.locksDir })
    ]
  }

  static async open(options: OpenCoreOptions): Promise<CairnCore> {
    const core = new CairnCore(options)
    // A killed writer may have left temp files and ledger rows that never got committed.
    removeOrphanTempFiles(core.paths.memoriesDir)
    try {
      core.startupReconcile = await reconcileLedger(core)
    } catch (error) {
      core.startupReconcile = { error: error instanceof Error ? error.message : String(error) }
    }
    if (options.watchSkills) await core.skills.start()
    return core
  }

  /**
   * The learning tools (memory, skills, session search), filtered by the settings.
   * `currentSessionId` lets session_search leave out (or include on request) the live session;
   * `options.summaries` is the model its `summarize: true` runs on.
   */
  learningTools(currentSessionId: () => string | null = () => null, options: LearningToolOptions = {}): ToolDef[] {
    const config = this.config.get()
    const tools: ToolDef[] = []
    if (config.memory.enabled || config.memory.userProfileEnabled) {
      tools.push(
        createMemoryTool(options.workspace ? this.memory.forWorkspace(options.workspace) : this.memory, {
          enabled: config.memory.enabled,
          userProfileEnabled: config.memory.userProfileEnabled,
          audience: 'chat'
        })
      )
    }
    // Reading a skill in chat is using it: the view keeps the skill from going stale.
    tools.push(...createSkillTools(this.skills, { allowCreate: config.learning.allowSkillCreation, viewCountsAsUse: true, audience: 'chat' }))
    tools.push(createSessionSearchTool(this.db, currentSessionId, options.summaries, options.embedder))
    return tools
  }

  /** Undoes one ledger row (see revertLedgerEntry); `force` reverts a skill change over newer text. */
  revert(id: number, options?: RevertOptions): Promise<RevertResult> {
    return revertLedgerEntry(this.ledger, { memory: this.memory, skills: this.skills, archive: this.archive }, id, options)
  }

  async close(): Promise<void> {
    await this.skills.close()
    this.db.close()
  }
}

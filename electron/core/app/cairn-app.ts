import { join } from 'node:path'
import type { IpcEventName, IpcEvents, IpcHandlers } from '../../../shared/ipc/contract'
import { EventBus } from '../events/event-bus'
import { suggestTitle } from '../agent/conversation-title'
import { ChatProvider } from '../provider/provider'
import { ProviderAccess, providerKeys } from '../provider/provider-access'
import { findProviderProblem, type ProviderSettings } from '../provider/provider-settings'
import type { CairnCore } from '../cairn'
import { scheduleCuration } from '../learning/host/curation-schedule'
import { LearningLoop } from '../learning/host/learning-loop'
import { LearningState } from '../learning/host/learning-state'
import { McpManager } from '../mcp/mcp-manager'
import { ReviewHost, reviewHostDepsOf } from '../learning/host/review-host'
import type { WorkerSpawner } from '../learning/host/spawn-worker'
import { archiveUnusedSkillsSoon } from '../skills/skill-archive'
import type { AppContext, AppEvent, AppShellOptions } from './app-context'
import { ChatManager, systemClock, type ChatClock } from './chat-manager'
import { chatHandlers } from './handlers/chat'
import { inboxHandlers, watchInbox } from './handlers/inbox'
import { learningHandlers } from './handlers/learning'
import { mcpHandlers, watchMcp } from './handlers/mcp'
import { backupHandlers } from './handlers/backup'
import { importHandlers } from './handlers/import'
import { AppImports } from './import-activity'
import { BackupSchedule } from './backup-schedule'
import { syncHandlers } from './handlers/sync'
import { SyncSchedule } from './sync-schedule'
import { SemanticFilling } from './semantic-filling'
import { SearchUpkeep } from './search-upkeep'
import { searchHandlers } from './handlers/search'
import { memoryProviderHandlers } from './handlers/memory-provider'
import { attachmentHandlers } from './handlers/attachments'
import { AppMemoryProvider } from './app-memory-provider'
import { memoryHandlers } from './handlers/memory'
import { projectMemoryHandlers } from './handlers/project-memory'
import { archiveHandlers } from './handlers/archive'
import { promptHandlers } from './handlers/prompts'
import { sessionHandlers } from './handlers/sessions'
import { settingsHandlers } from './handlers/settings'
import { modelHandlers } from './handlers/models'
import { skillHandlers } from './handlers/skills'
import { timelineHandlers } from './handlers/timeline'
import { windowHandlers } from './handlers/window'
import { AppWorkspaces } from './workspaces'
import type { SettingsSlice } from './handlers/route-slices'
import { streamLearnedChanges } from './learned-changes'

/** How long reviews of the conversations open at quit may take by default (see CairnAppOptions.quitReviewMs). */
const QUIT_REVIEW_MS = 30_000

/** What the shell composes the app from: the open core, how to start a review worker, and the shell's own facts. */
export interface CairnAppOptions extends AppShellOptions {
  core: CairnCore
  spawnWorker: WorkerSpawner
  /**
   * Folders no conversation may work in, as the shell knows them: the desktop app's install and
   * resources folders, Cairn's own checkout in browser mode. The data home is always refused.
   */
  forbiddenWorkspaceRoots?: readonly string[]
  /** The chats' clock (idle conversations are reviewed on its tick); tests pass their own. */
  clock?: ChatClock
  /**
   * On close: how long the reviews of conversations ended by quitting may run (the windows are gone
   * by then); what has not finished by then is stopped, and its row says why. Default 30 s.
   */
  quitReviewMs?: number
}

/** `true` only when `T` has no key that is not a contract route. */
type NoExtraRoutes<T> = [Exclude<keyof T, keyof IpcHandlers>] extends [never] ? true : never

/**
 * Everything the UI can ask for, behind the typed contract, with no Electron in it: the desktop main
 * process routes IPC here, `cairn serve` routes its WebSocket here. Owns the live chat sessions, the
 * review host and the learning loop for one data home, and broadcasts every change as an event.
 */
export class CairnApp implements AppContext {
  readonly events = new EventBus<AppEvent>()
  readonly host: ReviewHost
  readonly loop: LearningLoop
  readonly chats: ChatManager
  readonly workspaces: AppWorkspaces
  readonly mcp: McpManager
  readonly provider: ProviderAccess
  readonly backups: BackupSchedule
  readonly syncs: SyncSchedule
  readonly imports: AppImports
  /** Search by meaning, filled in the background (nothing at all while no embedding model is set). */
  readonly meaning: SemanticFilling
  /** Settings → Search: the word pass over older messages (run here when idle) and the state of search by meaning. */
  readonly searchUpkeep: SearchUpkeep
  readonly handlers: IpcHandlers
  readonly memoryProvider: AppMemoryProvider
  private readonly unsubscribe: Array<() => void> = []
  /** Unused skills Cairn made go to skills/.archive once the app is up (after the constructor returns, so the window is never held up). */
  private readonly archiving: ReturnType<typeof archiveUnusedSkillsSoon>

  constructor(readonly options: CairnAppOptions) {
    const { core } = options
    const env = options.env ?? process.env
    // Every key the app's parts use: the stored one, else the environment's (CAIRN_API_KEY and the like).
    this.provider = new ProviderAccess(() => core.config.get(), providerKeys((which) => options.secrets.getApiKey(which), env), env)
    this.host = new ReviewHost({
      ...reviewHostDepsOf(core),
      spawn: options.spawnWorker,
      provider: () => this.providerSettings(),
      keys: this.provider.keys
    })
    this.loop = new LearningLoop(core, this.host)
    this.workspaces = new AppWorkspaces({ core, userHome: options.userHome, forbiddenRoots: options.forbiddenWorkspaceRoots })
    this.mcp = new McpManager({
      servers: () => core.config.get().mcpServers,
      settings: () => core.config.get().mcp,
      logDir: join(core.paths.logsDir, 'mcp'),
      resolveSecret: (name) => options.secrets.getSecret?.(name) ?? null,
      env: options.env,
      clientVersion: options.version
    })
    this.memoryProvider = new AppMemoryProvider({
      config: () => core.config.get(),
      access: this.provider,
      dataHome: core.paths.root,
      archive: core.archive,
      changed: (status) => this.emit('memoryProvider.changed', status)
    })
    this.chats = new ChatManager({
      core,
      recall: () => this.memoryProvider.current(),
      hooks: this.loop.hooks,
      mode: options.platform.mode,
      workspaces: this.workspaces,
      env: options.env,
      provider: this.provider,
      emit: (name, payload) => this.emit(name, payload),
      endConversation: (sessionId, cause) => this.loop.endConversation(sessionId, cause),
      clock: options.clock,
      mcp: this.mcp,
      suggestTitle: (exchange) => suggestTitle(new ChatProvider({ ...this.provider.learning(), maxRetries: 0 }), exchange, AbortSignal.timeout(30_000))
    })
    this.unsubscribe.push(
      streamLearnedChanges({ ledger: core.ledger, host: this.host }, { changed: (change) => this.emit('ledger.changed', change), review: (event) => this.emit('review.event', event) }),
      core.skills.onChange((event) => this.emit('skills.changed', { name: event.name ?? null })),
      watchInbox(this, options.clock ?? systemClock),
      watchMcp(this),
      scheduleCuration({
        state: new LearningState(core.db),
        everyDays: () => core.config.get().learning.curateEveryDays,
        isIdle: () => !this.chats.anyRunning() && this.host.status().running === null && this.host.status().queued === 0,
        host: this.host,
        clock: options.clock ?? systemClock
      })
    )
    this.backups = new BackupSchedule({ core, version: options.version, clock: options.clock ?? systemClock, changed: (status) => this.emit('backup.changed', status) })
    this.imports = new AppImports({ core, loop: this.loop, host: this.host, env: options.env ?? process.env, changed: (activity) => this.emit('import.changed', activity), sessionsChanged: () => this.emit('sessions.changed', { sessionId: '' }) })
    this.syncs = new SyncSchedule({ core, secrets: options.secrets, host: this.host, clock: options.clock ?? systemClock, changed: (status) => this.emit('sync.changed', status), broughtIn: () => this.emit('memory.changed', {}) })
    this.meaning = new SemanticFilling({ db: core.db, config: () => core.config.get(), chatProvider: () => this.providerSettings(), keys: this.provider.keys, env: options.env, isIdle: () => !this.chats.anyRunning(), events: this.events, clock: options.clock ?? systemClock, changed: (what) => this.searchUpkeep?.emit(what === 'state') })
    this.searchUpkeep = new SearchUpkeep({ db: core.db, config: () => core.config.get(), isIdle: () => !this.chats.anyRunning(), events: this.events, clock: options.clock ?? systemClock, meaning: this.meaning, changed: (status) => this.emit('search.changed', status) })
    // Each group sees only its slice of the app (handlers/route-slices.ts); the app has every slice.
    const handlers = {
      ...appInfoHandler(this),
      ...chatHandlers(this),
      ...sessionHandlers(this),
      ...timelineHandlers(this),
      ...skillHandlers(this),
      ...memoryHandlers(this),
      ...projectMemoryHandlers(this),
      ...archiveHandlers(this),
      ...inboxHandlers(this),
      ...settingsHandlers(this),
      ...modelHandlers(this),
      ...learningHandlers(this),
      ...windowHandlers(this),
      ...mcpHandlers(this),
      ...backupHandlers(this),
      ...syncHandlers(this),
      ...importHandlers(this),
      ...searchHandlers(this),
      ...memoryProviderHandlers(this),
      ...attachmentHandlers(this),
      ...promptHandlers(this)
    }
    // A missing handler fails the assignment below; an extra one (a route the contract does not
    // declare) fails this line, since spreads escape TypeScript's excess-property check.
    const onlyContractRoutes: NoExtraRoutes<typeof handlers> = true
    void onlyContractRoutes
    this.handlers = handlers
    this.archiving = archiveUnusedSkillsSoon(core)
  }

  get core(): CairnCore {
    return this.options.core
  }

  emit<K extends IpcEventName>(name: K, payload: IpcEvents[K]): void {
    this.events.emit({ name, payload } as AppEvent)
  }

  /** The chat provider with its key (stored, else the environment's). */
  providerSettings(): ProviderSettings {
    return this.provider.chat()
  }

  async close(): Promise<void> {
    this.archiving.cancel()
    await this.archiving.settled
    await this.backups.close()
    await this.syncs.close()
    await this.imports.close()
    await this.searchUpkeep.close()
    await this.meaning.close()
    await this.chats.cancelAll()
    // What the open conversations taught since their last review is reviewed now, within a bound.
    const quitMs = this.options.quitReviewMs ?? QUIT_REVIEW_MS
    const finished = await this.host.settleWithin(this.chats.endAll('quit'), quitMs)
    for (const stop of this.unsubscribe) stop()
    await this.mcp.close()
    await this.host.close(finished ? undefined : { code: 'quit_before_run', seconds: quitMs / 1000 })
    await this.memoryProvider.close()
  }
}

function appInfoHandler(app: SettingsSlice): Pick<IpcHandlers, 'app.info'> {
  return {
    'app.info': async () => {
      return {
        version: app.options.version,
        home: app.core.paths.root,
        platform: process.platform,
        mode: app.options.platform.mode,
        providerProblem: findProviderProblem(app.providerSettings()),
        defaultWorkspace: app.workspaces.defaultFolder()
      }
    }
  }
}

export type { AppEvent, AppPlatform, SecretStore } from './app-context'

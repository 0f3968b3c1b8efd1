import type { IpcEventName, IpcEvents, IpcHandlers } from '../../../shared/ipc/contract'
import { EventBus } from '../events/event-bus'
import { findProviderProblem, resolveProviderSettings, type ProviderSettings } from '../provider/provider-settings'
import type { CairnCore } from '../cairn'
import { LearningLoop } from '../learning/learning-loop'
import { ReviewHost, reviewHostDepsOf } from '../learning/review-host'
import type { WorkerSpawner } from '../learning/spawn-worker'
import type { AppContext, AppEvent, CairnAppOptions } from './app-context'
import { ChatManager } from './chat-manager'
import { chatHandlers } from './handlers/chat'
import { learningHandlers } from './handlers/learning'
import { memoryHandlers } from './handlers/memory'
import { sessionHandlers } from './handlers/sessions'
import { settingsHandlers } from './handlers/settings'
import { skillHandlers } from './handlers/skills'
import { timelineHandlers } from './handlers/timeline'
import { windowHandlers } from './handlers/window'
import { AppWorkspaces } from './workspaces'

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
  readonly handlers: IpcHandlers
  private readonly unsubscribe: Array<() => void> = []

  constructor(readonly options: CairnAppOptions) {
    const { core } = options
    this.host = new ReviewHost({ ...reviewHostDepsOf(core), spawn: options.spawnWorker, provider: () => this.providerSettings() })
    this.loop = new LearningLoop(core, this.host)
    this.workspaces = new AppWorkspaces({ core, userHome: options.userHome, forbiddenRoots: options.forbiddenWorkspaceRoots })
    this.chats = new ChatManager({
      core,
      hooks: this.loop.hooks,
      mode: options.platform.mode,
      workspaces: this.workspaces,
      env: options.env,
      apiKey: () => options.secrets.getApiKey(),
      providerSettings: () => this.providerSettings(),
      emit: (name, payload) => this.emit(name, payload)
    })
    this.unsubscribe.push(
      this.host.events.on((event) => this.emit('review.event', event)),
      core.ledger.onRecord((entry) => this.emit('ledger.changed', { entry })),
      core.skills.onChange((event) => this.emit('skills.changed', { name: event.name ?? null }))
    )
    const handlers = {
      ...appInfoHandler(this),
      ...chatHandlers(this),
      ...sessionHandlers(this),
      ...timelineHandlers(this),
      ...skillHandlers(this),
      ...memoryHandlers(this),
      ...settingsHandlers(this),
      ...learningHandlers(this),
      ...windowHandlers(this)
    }
    // A missing handler fails the assignment below; an extra one (a route the contract does not
    // declare) fails this line, since spreads escape TypeScript's excess-property check.
    const onlyContractRoutes: NoExtraRoutes<typeof handlers> = true
    void onlyContractRoutes
    this.handlers = handlers
  }

  get core(): CairnCore {
    return this.options.core
  }

  emit<K extends IpcEventName>(name: K, payload: IpcEvents[K]): void {
    this.events.emit({ name, payload } as AppEvent)
  }

  /** Provider settings with the stored key (the environment fills in for the CLI and browser mode). */
  providerSettings(): ProviderSettings {
    return resolveProviderSettings(this.core.config.get(), this.options.env ?? process.env, this.options.secrets.getApiKey())
  }

  async close(): Promise<void> {
    await this.chats.cancelAll()
    for (const stop of this.unsubscribe) stop()
    await this.host.close()
  }
}

function appInfoHandler(app: AppContext): Pick<IpcHandlers, 'app.info'> {
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

export type { AppEvent, AppPlatform, CairnAppOptions, SecretStore } from './app-context'

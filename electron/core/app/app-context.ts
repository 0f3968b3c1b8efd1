import type { IpcEventName, IpcEvents } from '../../../shared/ipc/contract'
import type { KeyStorage } from '../../../shared/ipc/domain'
import type { CairnCore } from '../cairn'
import type { LearningLoop } from '../learning/learning-loop'
import type { ReviewHost } from '../learning/review-host'
import type { WorkerSpawner } from '../learning/spawn-worker'
import type { ProviderSettings } from '../provider/provider-settings'
import type { ChatManager } from './chat-manager'
import type { AppWorkspaces } from './workspaces'

/** Where the provider API key lives: the OS keyring in the app, the process in browser mode. */
export interface SecretStore {
  getApiKey(): string | null
  setApiKey(key: string | null): Promise<void>
  storage(): KeyStorage
}

/** What only the shell can do (desktop windows, the system browser). Browser mode leaves these out. */
export interface AppPlatform {
  mode: 'desktop' | 'browser'
  openMain?(sessionId?: string): void
  hideQuick?(): void
  openExternal?(url: string): Promise<void>
  /** The system's folder picker (may create a folder); null when the user cancels. */
  pickFolder?(options: { defaultPath?: string }): Promise<string | null>
}

export interface CairnAppOptions {
  core: CairnCore
  spawnWorker: WorkerSpawner
  secrets: SecretStore
  platform: AppPlatform
  version: string
  env?: NodeJS.ProcessEnv
  /**
   * Folders no conversation may work in, as the shell knows them: the desktop app's install and
   * resources folders, Cairn's own checkout in browser mode. The data home is always refused.
   */
  forbiddenWorkspaceRoots?: readonly string[]
  /** The user's home, where the default `Cairn` workspace is made (default: os.homedir()). */
  userHome?: string
}

export type AppEvent = { [K in IpcEventName]: { name: K; payload: IpcEvents[K] } }[IpcEventName]

/** What the route handlers work with: the app's parts, never the class that wires them. */
export interface AppContext {
  readonly options: CairnAppOptions
  readonly core: CairnCore
  readonly host: ReviewHost
  readonly loop: LearningLoop
  readonly chats: ChatManager
  readonly workspaces: AppWorkspaces
  emit<K extends IpcEventName>(name: K, payload: IpcEvents[K]): void
  providerSettings(): ProviderSettings
}

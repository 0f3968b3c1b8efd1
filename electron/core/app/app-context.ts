import type { IpcEventName, IpcEvents } from '../../../shared/ipc/contract'
import type { KeyStorage } from '../../../shared/ipc/domain'
import type { CairnCore } from '../cairn'
import type { LearningLoop } from '../learning/host/learning-loop'
import type { ReviewHost } from '../learning/host/review-host'
import type { WorkerSpawner } from '../learning/host/spawn-worker'
import type { McpManager } from '../mcp/mcp-manager'
import type { ProviderSettings } from '../provider/provider-settings'
import type { ChatClock, ChatManager } from './chat-manager'
import type { AppWorkspaces } from './workspaces'

/** Which key: the chat provider's, the one for `learning.baseURL` (reviews on their own endpoint), or the one for `search.embeddingBaseURL`. */
export type ApiKeyWhich = 'chat' | 'learning' | 'embedding'

/** Where the provider API keys live: the OS keyring in the app, the process in browser mode. `which` defaults to `chat`. */
export interface SecretStore {
  getApiKey(which?: ApiKeyWhich): string | null
  setApiKey(key: string | null, which?: ApiKeyWhich): Promise<void>
  storage(which?: ApiKeyWhich): KeyStorage
  /** Other secrets by name (an MCP server's `${secret:NAME}` env or header values); null when none is kept. */
  getSecret?(name: string): string | null
  setSecret?(name: string, value: string | null): Promise<void>
}

/** What only the shell can do (desktop windows, the system browser). Browser mode leaves these out. */
export interface AppPlatform {
  mode: 'desktop' | 'browser'
  openMain?(sessionId?: string): void
  hideQuick?(): void
  openExternal?(url: string): Promise<void>
  /** The system's folder picker (may create a folder); null when the user cancels. */
  pickFolder?(options: { defaultPath?: string }): Promise<string | null>
  /** The system's file picker (one existing file, optionally of these extensions); null when the user cancels. */
  pickFile?(options: { defaultPath?: string; filters?: Array<{ name: string; extensions: string[] }> }): Promise<string | null>
  /** Shows a folder in the system file manager (a skill's folder); throws with the reason when it cannot. */
  openPath?(path: string): Promise<void>
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
  /** The chats' clock (idle conversations are reviewed on its tick); tests pass their own. */
  clock?: ChatClock
  /**
   * On close: how long the reviews of conversations ended by quitting may run (the windows are gone
   * by then); what has not finished by then is stopped, and its row says why. Default 30 s.
   */
  quitReviewMs?: number
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
  /** The user's MCP servers (started with the first conversation, or when Settings asks). */
  readonly mcp: McpManager
  emit<K extends IpcEventName>(name: K, payload: IpcEvents[K]): void
  providerSettings(): ProviderSettings
}

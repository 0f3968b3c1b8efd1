import type { IpcEventName, IpcEvents } from '../../../shared/ipc/contract'
import type { KeyStorage } from '../../../shared/ipc/domain'
import type { LearningLoop } from '../learning/host/learning-loop'
import type { ReviewHost } from '../learning/host/review-host'
import type { McpManager } from '../mcp/mcp-manager'
import type { ApiKeyWhich, ProviderAccess } from '../provider/provider-access'
import type { ProviderSettings } from '../provider/provider-settings'
import type { AppHome } from './app-home'
import type { ChatManager } from './chat-manager'
import type { AppWorkspaces } from './workspaces'

export type { ApiKeyWhich } from '../provider/provider-access'

/** Where the provider API keys live: the OS keyring in the app, the process in browser mode. `which` defaults to `chat`. */
export interface SecretStore {
  getApiKey(which?: ApiKeyWhich): string | null
  setApiKey(key: string | null, which?: ApiKeyWhich): Promise<void>
  storage(which?: ApiKeyWhich): KeyStorage
  /** Other secrets by name (an MCP server's `${secret:NAME}` env or header values); null when none is kept. */
  getSecret?(name: string): string | null
  setSecret?(name: string, value: string | null): Promise<void>
  /** Browser mode: whether typed keys and secrets are remembered on this computer (a 0600 file in the data home); absent in the desktop app. */
  remembering?(): { remember: boolean; file: string } | undefined
  setRemembering?(remember: boolean): Promise<void>
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

/** What the shell tells the app about itself that its parts read: where keys live, what only the shell can do, the version. */
export interface AppShellOptions {
  secrets: SecretStore
  platform: AppPlatform
  version: string
  env?: NodeJS.ProcessEnv
  /** The user's home, where the default `Cairn` workspace is made (default: os.homedir()). */
  userHome?: string
}

export type AppEvent = { [K in IpcEventName]: { name: K; payload: IpcEvents[K] } }[IpcEventName]

/**
 * The app's parts, never the class that wires them. Each handler group takes the slice of these it
 * uses (handlers/route-slices.ts); CairnApp implements them all.
 */
export interface AppContext {
  readonly options: AppShellOptions
  readonly core: AppHome
  readonly host: ReviewHost
  readonly loop: LearningLoop
  readonly chats: ChatManager
  readonly workspaces: AppWorkspaces
  /** The user's MCP servers (started with the first conversation, or when Settings asks). */
  readonly mcp: McpManager
  /** How this process reaches the model: the chat, learning and embedding providers with their keys. */
  readonly provider: ProviderAccess
  emit<K extends IpcEventName>(name: K, payload: IpcEvents[K]): void
  providerSettings(): ProviderSettings
}

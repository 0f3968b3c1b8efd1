import type { Inbox } from '../../learning/host/proposal-apply'
import type { LearningLoop } from '../../learning/host/learning-loop'
import type { ReviewHost } from '../../learning/host/review-host'
import type { McpManager } from '../../mcp/mcp-manager'
import type { AppContext, AppShellOptions } from '../app-context'
import type { AppHome } from '../app-home'
import type { AppMemoryProvider } from '../app-memory-provider'
import type { BackupSchedule } from '../backup-schedule'
import type { ChatManager } from '../chat-manager'
import type { AppImports } from '../import-activity'
import type { SearchUpkeep } from '../search-upkeep'
import type { SyncSchedule } from '../sync-schedule'
import type { AppWorkspaces } from '../workspaces'

// What each group of route handlers works with: a slice of the app's parts, so a handler's signature
// says what it can reach. CairnApp (cairn-app.ts) has them all and passes itself to every group.

/** How a handler tells every window what changed. */
type Emits = Pick<AppContext, 'emit'>

/** Conversations: chat turns, the conversation list and each conversation's settings, the model list. */
export interface ConversationSlice extends Emits {
  readonly core: Pick<AppHome, 'paths' | 'config' | 'db' | 'sessions' | 'attachments'>
  readonly chats: ChatManager
  readonly workspaces: Pick<AppWorkspaces, 'use'>
  /** The finished reviews of a conversation (`review_runs`). */
  readonly host: Pick<ReviewHost, 'runs'>
  providerSettings: AppContext['providerSettings']
}

/** The library: memory and skills edited by hand, their histories, and the timeline of learned changes with its revert. */
export interface LibrarySlice extends Emits {
  readonly core: Pick<AppHome, 'paths' | 'config' | 'db' | 'ledger' | 'memory' | 'memoryPins' | 'memoryHidden' | 'skills' | 'skillFlags' | 'revert' | 'archive'>
  readonly host: Pick<ReviewHost, 'runs'>
  /** Shows a skill's folder in the system file manager. */
  readonly options: Pick<AppShellOptions, 'platform'>
  /** A workspace a route reads (its instruction files) is checked like a conversation's. */
  readonly workspaces: Pick<AppWorkspaces, 'check'>
  /** The embedding model, when one is set: the Memory screen's search finds archived entries by meaning too. */
  readonly provider: Pick<AppContext['provider'], 'embedder'>
}

/** What the Inbox works on, as learning/ declares it. */
type InboxHome = ConstructorParameters<typeof Inbox>[0]

/** Learning: its status and switches, reviews and curation asked for, and the Inbox. */
export interface LearningSlice extends Emits {
  readonly core: Pick<AppHome, 'config' | 'db' | 'sessions' | 'skills' | 'ledger' | 'skillFlags'> & InboxHome
  readonly host: ReviewHost
  readonly loop: Pick<LearningLoop, 'reviewNow'>
}

/** Settings: the provider and its keys, MCP servers, search, the windows, and the app's own facts. */
export interface SettingsSlice extends Emits {
  readonly core: Pick<AppHome, 'paths' | 'config'>
  readonly options: AppShellOptions
  readonly mcp: McpManager
  /** A conversation picks up reloaded MCP tools. */
  readonly chats: Pick<ChatManager, 'reloadTools'>
  readonly workspaces: Pick<AppWorkspaces, 'defaultFolder'>
  readonly provider: AppContext['provider']
  readonly searchUpkeep: SearchUpkeep
  providerSettings: AppContext['providerSettings']
}

/** Settings → Data: backups, syncs, imports and their undo. */
export interface DataSlice extends Emits {
  readonly core: Pick<AppHome, 'config' | 'db' | 'ledger' | 'revert'>
  /** The system's file and folder pickers. */
  readonly options: Pick<AppShellOptions, 'platform'>
  readonly backups: BackupSchedule
  readonly syncs: SyncSchedule
  readonly imports: AppImports
}

/** Issue 28, part D: the active memory provider, as Settings → Memory shows it. */
export interface MemoryProviderSlice {
  readonly memoryProvider: Pick<AppMemoryProvider, 'status' | 'current'>
}

export type {
  ListMessagesOptions,
  ListSessionsOptions,
  MessageRecord,
  MessageRole,
  NewMessage,
  NewSession,
  SessionPatch,
  SessionRecord,
  ToolCallRecord
} from './types'
export { messageRoles } from './types'
export { VersionError, type VersionGroup } from './message-branches'
export { InvalidMessageError, SessionNotFoundError, SessionStore, newSessionId } from './session-store'
export { checkWorkspace, defaultWorkspace, WorkspaceError, type WorkspaceCheck, type WorkspaceProblem } from './session-workspace'
export { extractTerms, planSearch, sanitizeFtsQuery, MAX_QUERY_CHARS, type QueryTerm, type SearchPlan } from './fts-query'
export {
  searchSessions,
  DEFAULT_SEARCH_LIMIT,
  MAX_SEARCH_LIMIT,
  type SearchOptions,
  type SessionHit,
  type SessionSearchResult
} from './session-search'
export {
  MessageNotInSessionError,
  readSession,
  recentSessions,
  scrollSession,
  type ReadResult,
  type RecentSession,
  type ScrollResult,
  type SessionHeader
} from './session-browse'
export type { MessageView } from './message-view'
export { createSessionSearchTool, sessionSearchSchema, type SessionSearchArgs } from './session-search-tool'
export { exportFormats, exportSession, type ExportFormat, type SessionExport } from './session-export'

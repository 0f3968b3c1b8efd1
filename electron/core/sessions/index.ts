export type {
  ListMessagesOptions,
  ListSessionsOptions,
  MessageRecord,
  MessageRole,
  NewMessage,
  NewSession,
  PageAt,
  SessionPage,
  SessionPatch,
  SessionRecord,
  ToolCallRecord
} from './types'
export { messageRoles } from './types'
export { VersionError, type VersionGroup } from './message-branches'
export { DEFAULT_PAGE_SIZE, MAX_PAGE_SIZE, type MessagePage } from './message-pages'
export { InvalidMessageError, SessionNotFoundError, SessionStore, newSessionId } from './session-store'
export { InvalidCursorError, sessionCursor } from './session-pages'
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
export { exportFormats, exportSession, exportStream, type ExportFormat, type SessionExport } from './session-export'
export { searchByMeaning, semanticStatus, type SemanticCandidate, type SemanticStatus } from './semantic-search'

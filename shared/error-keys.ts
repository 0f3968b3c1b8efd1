/**
 * Every failure the core reports to a person, as a key with the figures its words need. The core
 * throws `IpcError.of(code, key, params)`; every face words it from shared/i18n (`error.<key>` in
 * en and zh-CN) with `describeRequestError`. The transport's `code` (NOT_FOUND, BUSY…) says what a
 * face may do about it; the key says which words to use.
 *
 * To add one: a line here, `error.<key>` in `i18n/en-error-keys.ts` and `i18n/zh-CN-error-keys.ts`
 * (both fail to compile without it), then `throw IpcError.of('NOT_FOUND', '<key>', { … })`.
 */
export interface ErrorParamsByKey {
  // Requests the router or a transport refused before a handler ran.
  'request.unknown_route': { route: string }
  'request.quick_window': { route: string }
  'request.invalid_input': { route: string; issues: string }
  'request.refused_sender': { route: string; why: string }
  'request.unsendable': { detail: string }
  'frame.not_json': { detail: string; example: string }
  'frame.not_object': { got: string; example: string }
  'frame.invalid': { issues: string }
  // The window and the platform.
  'link.https_only': Record<string, never>
  'folder.open_failed': { path: string; problem: string }
  'picker.no_folder': Record<string, never>
  'picker.no_file': Record<string, never>
  // Conversations and chat.
  'conversation.missing': { id: string }
  'conversation.message_not_shown': { message: string; id: string }
  'conversation.busy_instructions': Record<string, never>
  'conversation.busy_delete': Record<string, never>
  'conversation.busy_wait': Record<string, never>
  'conversation.busy': Record<string, never>
  'conversation.nothing_to_answer': Record<string, never>
  'chat.quick_no_folder': Record<string, never>
  'version.condensed': Record<string, never>
  'version.condensed_since': Record<string, never>
  'version.missing': { id: string }
  'version.not_shown': Record<string, never>
  'version.not_a_user_message': Record<string, never>
  // The library, the timeline and the Inbox.
  'timeline.entry_missing': { id: number }
  'skill.missing': { name: string }
  'proposal.missing': { id: number }
  'learning.off_curate': Record<string, never>
  // The user's MCP servers.
  'mcp.server_missing': { name: string }
  'mcp.server_not_object': { name: string }
  'mcp.no_secret_store': Record<string, never>
  'mcp.server_exists': { name: string }
  'mcp.server_invalid': { name: string; problem: string }
  'mcp.import_name_taken': { name: string; target: string }
  // Imports and backups.
  'import.missing': { id: number }
  'import.already_undone': { id: number }
  'import.busy_undo': { id: number }
  'import.path_relative': { path: string }
  'backup.folder_relative': { folder: string }
}

export type ErrorKey = keyof ErrorParamsByKey

// A record rather than a list, so a key added above fails to compile here until it is listed.
const errorKeys: Record<ErrorKey, true> = {
  'request.unknown_route': true,
  'request.quick_window': true,
  'request.invalid_input': true,
  'request.refused_sender': true,
  'request.unsendable': true,
  'frame.not_json': true,
  'frame.not_object': true,
  'frame.invalid': true,
  'link.https_only': true,
  'folder.open_failed': true,
  'picker.no_folder': true,
  'picker.no_file': true,
  'conversation.missing': true,
  'conversation.message_not_shown': true,
  'conversation.busy_instructions': true,
  'conversation.busy_delete': true,
  'conversation.busy_wait': true,
  'conversation.busy': true,
  'conversation.nothing_to_answer': true,
  'chat.quick_no_folder': true,
  'version.condensed': true,
  'version.condensed_since': true,
  'version.missing': true,
  'version.not_shown': true,
  'version.not_a_user_message': true,
  'timeline.entry_missing': true,
  'skill.missing': true,
  'proposal.missing': true,
  'learning.off_curate': true,
  'mcp.server_missing': true,
  'mcp.server_not_object': true,
  'mcp.no_secret_store': true,
  'mcp.server_exists': true,
  'mcp.server_invalid': true,
  'mcp.import_name_taken': true,
  'import.missing': true,
  'import.already_undone': true,
  'import.busy_undo': true,
  'import.path_relative': true,
  'backup.folder_relative': true
}

/** Whether a key that came over the wire is one this version words (an older or newer peer may send others). */
export function isErrorKey(value: unknown): value is ErrorKey {
  return typeof value === 'string' && Object.hasOwn(errorKeys, value)
}

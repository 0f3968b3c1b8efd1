/**
 * Every failure the core reports to a person, as a key with the figures its words need. The core
 * throws `IpcError.of(code, key, params)`; every face words it from shared/i18n (`error.<key>` in
 * en and zh-CN) with `describeRequestError`. The transport's `code` (NOT_FOUND, BUSY…) says what a
 * face may do about it; the key says which words to use.
 *
 * To add one: a line here, `error.<key>` in `i18n/en-error-keys.ts` and `i18n/zh-CN-error-keys.ts`
 * (both fail to compile without it), then `throw IpcError.of('NOT_FOUND', '<key>', { … })`.
 */
/** Where a value sits in an MCP server's config: `where` in English ("the header Authorization"), `part` and `partName` to word it in another language. */
export type McpValueParams = {
  server: string
  where: string
  part: 'url' | 'command' | 'argument' | 'header' | 'variable' | 'cwd'
  partName: string
}

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
  'session.missing': { id: string }
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
  'revert.not_found': { id: number }
  'revert.already_reverted': { id: number; by: number }
  // Refusals of a timeline revert and of restoring a memory entry or a skill's version.
  'revert.not_memory': { id: number; kind: string; target: string }
  'revert.memory_no_text': { id: number; field: 'before' | 'after'; file: string }
  'revert.memory_unsafe': { id: number; why: string }
  'revert.memory_split': { id: number; why: string; file: string }
  'revert.memory_holds_removed': { id: number; file: string }
  'revert.memory_entry_changed': { id: number; file: string }
  'revert.memory_over_limit': { id: number; file: string; total: string; limit: string }
  'revert.memory_no_change': { id: number; file: string }
  'revert.not_skill': { id: number; kind: string }
  'revert.skill_symlink': { target: string; link: string }
  'revert.skill_changed': { id: number; target: string }
  'revert.skill_gone': { name: string }
  'revert.skill_exists_again': { name: string }
  'revert.skill_archive_gone': { name: string; archive: string }
  'revert.skill_exists_at': { name: string; path: string }
  'revert.skill_missing_for_file': { name: string }
  'revert.file_removed_since': { target: string }
  'memory_restore.not_memory': { id: number; target: string }
  'memory_restore.no_text': { id: number }
  'memory_restore.already_held': { id: number; store: string }
  'memory_restore.unchanged': { store: string }
  'skill_restore.other_target': { id: number; target: string; name: string }
  'skill_restore.other_skill': { id: number; owner: string; name: string }
  'skill_restore.not_a_file': { id: number; target: string; name: string }
  'skill_restore.removed_skill_md': { id: number; target: string }
  'skill_restore.binary': { id: number }
  'skill_restore.unchanged': { id: number; target: string }
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
  // Why an MCP server is not ready (its status in Settings → Tools, `cairn mcp list`).
  'mcp.command_not_found': { server: string; command: string; problem: string }
  'mcp.command_not_runnable': { server: string; command: string; errno: string; problem: string }
  'mcp.unauthorized': { server: string; status: number; problem: string }
  'mcp.start_timeout': { server: string; seconds: number; timeoutMs: number }
  'mcp.exited_starting': { server: string; tail: string }
  'mcp.exited_starting_silently': { server: string }
  'mcp.connect_failed': { server: string; problem: string }
  'mcp.connect_failed_http': { server: string; problem: string; status: number }
  'mcp.crashed': { server: string }
  'mcp.crashed_saying': { server: string; tail: string }
  'mcp.own_secret_named': McpValueParams & { secret: string }
  'mcp.secret_not_stored': McpValueParams & { secret: string }
  'mcp.own_env_named': McpValueParams & { name: string }
  'mcp.env_not_set': McpValueParams & { name: string }
  'mcp.server_not_ready': { server: string; status: string }
  'mcp.server_not_ready_because': { server: string; status: string; problem: string }
  // Imports and backups.
  'import.missing': { id: number }
  'import.already_undone': { id: number }
  'import.busy_undo': { id: number }
  'import.path_relative': { path: string }
  'backup.folder_relative': { folder: string }
  // Settings, lists, imports, backups and sync (thrown as KeyedError subclasses, shared/keyed-error.ts).
  'config.not_json': { path: string; detail: string }
  'config.not_object': { path: string }
  'config.invalid': { source: string; issues: string }
  'list.cursor_malformed': Record<string, never>
  'import.unknown_source': { source: string }
  'import.missing_listed': { id: number }
  'import.no_folder': { app: string; path: string }
  'import.not_claude_code': { path: string }
  'import.no_hermes_home': { path: string }
  'import.not_hermes_home': { path: string }
  'import.no_openclaw_workspace': { path: string }
  'import.not_openclaw_workspace': { path: string }
  'import.no_export': { app: string; path: string }
  'import.export_folder_empty': { path: string; file: string; app: string }
  'import.export_zip_empty': { path: string; file: string; app: string }
  'import.export_zip_unsafe': { name: string; entry: string }
  'import.export_zip_unreadable': { name: string; problem: string }
  'backup.no_home': { home: string }
  'backup.file_exists': { file: string }
  'backup.cannot_write': { folder: string; problem: string }
  'backup.file_busy': { file: string; problem: string }
  'backup.too_many_members': { name: string; limit: string }
  'backup.expands_too_far': { name: string; archiveSize: string; expandedSize: string; times: number }
  'backup.no_room': { name: string; size: string; free: string }
  'backup.member_absolute': { name: string; path: string }
  'backup.member_climbs': { name: string; path: string }
  'backup.member_not_plain': { name: string; path: string; type: string }
  'backup.newer_format': { name: string; version: string }
  'backup.schema_mismatch': { name: string; onDisk: string; manifest: string }
  'backup.unreadable': { name: string; problem: string }
  'backup.no_manifest': { name: string; manifest: string }
  'backup.manifest_not_json': { name: string; manifest: string }
  'backup.manifest_invalid': { name: string; manifest: string }
  'backup.newer_schema': { name: string; version: string; schema: number; latest: number }
  'backup.listed_absolute': { name: string; path: string }
  'backup.listed_climbs': { name: string; path: string }
  'backup.incomplete': { name: string; path: string }
  'backup.checksum': { name: string; path: string }
  'backup.unlisted': { name: string; extra: string }
  'backup.no_file': { archive: string }
  'backup.home_is_file': { home: string }
  'backup.home_in_use': { use: string }
  'memory.entry_missing': { target: string; text: string }
  'memory.entry_ambiguous': { target: string; text: string }
  'sync.failed': { detail: string }
  'sync.not_set_up': Record<string, never>
  'sync.unsafe_path': { detail: string }
  'sync.busy': Record<string, never>
  'sync.kept_moving': { url: string; tries: number }
  'sync.push_refused': { url: string; detail: string }
  'sync.unauthorized': { url: string; status: string }
  'sync.not_a_repository': { url: string; status: string; detail: string }
  'sync.unreachable': { url: string; detail: string }
  'sync.talk_failed': { url: string; detail: string }
  'sync.ssh_remote': { url: string }
  'sync.not_a_url': { url: string }
  'sync.not_https': { url: string; protocol: string }
  'sync.credentials_in_url': Record<string, never>
  'sync.no_writable_library_named': { library: string; writable: string }
  'sync.name_library': { names: string }
  'sync.no_writable_library': Record<string, never>
  'sync.no_skill': { name: string; folder: string }
  'sync.branch_refused': { url: string; branch: string; detail: string }
  // issue 28, part B: project memory
  'memory.no_project': Record<string, never>
  'workspace.no_instructions': { file: string },
  // The memory archive (issue 28, part A).
  'archive.entry_missing': { id: number }
  'archive.no_room': { file: string; current: number; limit: number }
  'archive.refused': Record<string, never>
  // Issue 29, part E: a sent image shown again (its stored copy gone, or not an image).
  'attachments.image_unavailable': { name: string }
  // The prompt library (issue 29, part F).
  'prompts.exists': { name: string }
  'prompts.missing': { name: string }
  'prompts.refused': { name: string; pattern: string }
  'prompts.invalid': { name: string; issues: string }
  'prompts.link': { path: string }
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
  'session.missing': true,
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
  'revert.not_found': true,
  'revert.already_reverted': true,
  'revert.not_memory': true,
  'revert.memory_no_text': true,
  'revert.memory_unsafe': true,
  'revert.memory_split': true,
  'revert.memory_holds_removed': true,
  'revert.memory_entry_changed': true,
  'revert.memory_over_limit': true,
  'revert.memory_no_change': true,
  'revert.not_skill': true,
  'revert.skill_symlink': true,
  'revert.skill_changed': true,
  'revert.skill_gone': true,
  'revert.skill_exists_again': true,
  'revert.skill_archive_gone': true,
  'revert.skill_exists_at': true,
  'revert.skill_missing_for_file': true,
  'revert.file_removed_since': true,
  'memory_restore.not_memory': true,
  'memory_restore.no_text': true,
  'memory_restore.already_held': true,
  'memory_restore.unchanged': true,
  'skill_restore.other_target': true,
  'skill_restore.other_skill': true,
  'skill_restore.not_a_file': true,
  'skill_restore.removed_skill_md': true,
  'skill_restore.binary': true,
  'skill_restore.unchanged': true,
  'skill.missing': true,
  'proposal.missing': true,
  'learning.off_curate': true,
  'mcp.server_missing': true,
  'mcp.server_not_object': true,
  'mcp.no_secret_store': true,
  'mcp.server_exists': true,
  'mcp.server_invalid': true,
  'mcp.import_name_taken': true,
  'mcp.command_not_found': true,
  'mcp.command_not_runnable': true,
  'mcp.unauthorized': true,
  'mcp.start_timeout': true,
  'mcp.exited_starting': true,
  'mcp.exited_starting_silently': true,
  'mcp.connect_failed': true,
  'mcp.connect_failed_http': true,
  'mcp.crashed': true,
  'mcp.crashed_saying': true,
  'mcp.own_secret_named': true,
  'mcp.secret_not_stored': true,
  'mcp.own_env_named': true,
  'mcp.env_not_set': true,
  'mcp.server_not_ready': true,
  'mcp.server_not_ready_because': true,
  'import.missing': true,
  'import.already_undone': true,
  'import.busy_undo': true,
  'import.path_relative': true,
  'backup.folder_relative': true,
  'config.not_json': true,
  'config.not_object': true,
  'config.invalid': true,
  'list.cursor_malformed': true,
  'import.unknown_source': true,
  'import.missing_listed': true,
  'import.no_folder': true,
  'import.not_claude_code': true,
  'import.no_hermes_home': true,
  'import.not_hermes_home': true,
  'import.no_openclaw_workspace': true,
  'import.not_openclaw_workspace': true,
  'import.no_export': true,
  'import.export_folder_empty': true,
  'import.export_zip_empty': true,
  'import.export_zip_unsafe': true,
  'import.export_zip_unreadable': true,
  'backup.no_home': true,
  'backup.file_exists': true,
  'backup.cannot_write': true,
  'backup.file_busy': true,
  'backup.too_many_members': true,
  'backup.expands_too_far': true,
  'backup.no_room': true,
  'backup.member_absolute': true,
  'backup.member_climbs': true,
  'backup.member_not_plain': true,
  'backup.newer_format': true,
  'backup.schema_mismatch': true,
  'backup.unreadable': true,
  'backup.no_manifest': true,
  'backup.manifest_not_json': true,
  'backup.manifest_invalid': true,
  'backup.newer_schema': true,
  'backup.listed_absolute': true,
  'backup.listed_climbs': true,
  'backup.incomplete': true,
  'backup.checksum': true,
  'backup.unlisted': true,
  'backup.no_file': true,
  'backup.home_is_file': true,
  'backup.home_in_use': true,
  'memory.entry_missing': true,
  'memory.entry_ambiguous': true,
  'sync.failed': true,
  'sync.not_set_up': true,
  'sync.unsafe_path': true,
  'sync.busy': true,
  'sync.kept_moving': true,
  'sync.push_refused': true,
  'sync.unauthorized': true,
  'sync.not_a_repository': true,
  'sync.unreachable': true,
  'sync.talk_failed': true,
  'sync.ssh_remote': true,
  'sync.not_a_url': true,
  'sync.not_https': true,
  'sync.credentials_in_url': true,
  'sync.no_writable_library_named': true,
  'sync.name_library': true,
  'sync.no_writable_library': true,
  'sync.no_skill': true,
  'sync.branch_refused': true,
  // issue 28, part B: project memory
  'memory.no_project': true,
  'workspace.no_instructions': true,
  'archive.entry_missing': true,
  'archive.no_room': true,
  'archive.refused': true,
  // Issue 29, part E
  'attachments.image_unavailable': true,
  // The prompt library (issue 29, part F).
  'prompts.exists': true,
  'prompts.missing': true,
  'prompts.refused': true,
  'prompts.invalid': true,
  'prompts.link': true
}

/** Whether a key that came over the wire is one this version words (an older or newer peer may send others). */
export function isErrorKey(value: unknown): value is ErrorKey {
  return typeof value === 'string' && Object.hasOwn(errorKeys, value)
}

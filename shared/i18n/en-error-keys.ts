import type { ErrorKey } from '../error-keys'

/**
 * English words for the core's error keys (shared/error-keys.ts), `error.<key>`. These are also the
 * English an `IpcError` carries for logs and older clients, so they keep the sentences the core wrote.
 */
export const enErrorKeys = {
  'error.request.unknown_route': 'Unknown request "{route}".',
  'error.request.quick_window': 'The quick prompt cannot ask for "{route}". Open the main Cairn window to do that.',
  'error.request.invalid_input': 'Invalid input for {route}: {issues}',
  'error.request.refused_sender': 'Cairn refused the request "{route}": it was {why}.',
  'error.request.unsendable': 'The answer could not be sent: {detail}',
  'error.frame.not_json': 'The frame is not valid JSON ({detail}). Send a request like {example}.',
  'error.frame.not_object': 'A frame must be a JSON object like {example}, not {got}.',
  'error.frame.invalid': 'Invalid request frame: {issues}.',
  'error.link.https_only': 'Only https:// links open in the browser.',
  'error.folder.open_failed': 'Could not open {path}: {problem}',
  'error.picker.no_folder': 'Browser mode has no folder picker: type the folder’s full path instead.',
  'error.picker.no_file': 'Browser mode has no file picker: type the full path instead.',
  'error.conversation.missing': 'There is no conversation {id}.',
  'error.conversation.message_not_shown': 'Message {message} is not shown in conversation {id}; it may belong to another conversation or to a version not shown now.',
  'error.conversation.busy_instructions': 'Stop the reply in this conversation before changing its instructions.',
  'error.conversation.busy_delete': 'Stop the reply in this conversation before deleting it.',
  'error.conversation.busy_wait': 'Cairn is still answering in this conversation. Wait for it or stop it first.',
  'error.conversation.busy': 'Cairn is still answering in this conversation. Stop it first.',
  'error.conversation.nothing_to_answer': 'There is no message to answer again in this conversation.',
  'error.chat.quick_no_folder': 'The quick prompt cannot choose a folder. Open the main Cairn window to do that.',
  'error.version.condensed': 'This part of the conversation has been condensed to save space, so it can no longer be edited or answered again.',
  'error.version.condensed_since': 'This part of the conversation has been condensed to save space since, so its other versions can no longer be continued.',
  'error.version.missing': 'Version {id} is not part of this conversation. Open the conversation again to see its versions.',
  'error.version.not_shown': 'That version belongs to a part of the conversation that is not shown now.',
  'error.version.not_a_user_message': 'Only a message you sent in this conversation can be edited.',
  'error.timeline.entry_missing': 'There is no timeline entry #{id}.',
  'error.skill.missing': 'There is no skill named "{name}".',
  'error.proposal.missing': 'There is no proposal #{id}.',
  'error.learning.off_curate': 'Learning is off, so the library was not curated. Turn it on in Settings (Auto or Ask) first.',
  'error.mcp.server_missing': 'There is no MCP server named "{name}".',
  'error.mcp.server_not_object': 'The MCP server "{name}" in config.json is not a JSON object; fix it there first.',
  'error.mcp.no_secret_store': 'This Cairn cannot keep secrets; put the value in config.json as ${secret:NAME} and set it in the environment.',
  'error.mcp.server_exists': 'An MCP server named "{name}" exists already: pick another name.',
  'error.mcp.server_invalid': 'The server "{name}" is not valid: {problem}',
  'error.mcp.import_name_taken': 'An MCP server named "{target}" exists already: rename "{name}" or leave it out.',
  'error.import.missing': 'There is no import #{id}.',
  'error.import.already_undone': 'Import #{id} was already undone.',
  'error.import.busy_undo': 'Wait for the import or the learning from imports to finish, then undo.',
  'error.import.path_relative': 'Give the full path (like /Users/me/.hermes), not "{path}".',
  'error.backup.folder_relative': 'The backup folder must be a full path (like /Users/me/Backups), not "{folder}".',

  'error.unknown': 'Something went wrong: {message}',
  // The CLI says where to look after a failure: "There is no conversation x. List them with: cairn sessions".
  'error.withHint': '{failure} {hint}',
  'error.hint.listWith': 'List them with: {command}'
} as const satisfies Record<`error.${ErrorKey}` | 'error.unknown' | 'error.withHint' | 'error.hint.listWith', string>

/**
 * English words for failed turns (issue 29, part A): each names its cause with the specifics (the model,
 * the provider's address) and the one thing that fixes it; the sidebar's mark of a conversation whose
 * only message was not answered; and the CLI's fix lines. Registered in index.ts.
 */
export const enTurnFailures = {
  'turnFailure.model_not_found': 'The provider at {baseURL} has no model "{model}". Choose a model it lists in Settings.',
  'turnFailure.auth': 'The provider at {baseURL} rejected the API key. Enter the right key in Settings.',
  'turnFailure.unreachable': 'Cannot reach the provider at {baseURL}. Start it, or correct the address in Settings.',
  'turnFailure.images_unsupported': 'The model "{model}" does not take images. Choose a model that reads images in Settings, or send the message without them.',
  'turnFailure.cause.model_not_found': 'The provider at {baseURL} has no model "{model}".',
  'turnFailure.cause.auth': 'The provider at {baseURL} rejected the API key.',
  'turnFailure.cause.unreachable': 'Cannot reach the provider at {baseURL}.',
  'turnFailure.cause.images_unsupported': 'The model "{model}" does not take images.',
  'turnFailure.mcpServer': 'The MCP server "{server}" is not available. See its status and log in Settings.',
  'turnFailure.unanswered': 'Not answered',
  'turnFailure.unansweredHint': 'Its message was not answered. Open it to see why and try again.',
  'turnFailure.cli.fix.auth': 'To fix: export CAIRN_API_KEY=<your key> (or OPENAI_API_KEY), then send it again.',
  'turnFailure.cli.fix.model_not_found': 'To fix: export CAIRN_MODEL=<a model {baseURL} lists> (or set provider.model in {configFile}), then send it again.',
  'turnFailure.cli.fix.unreachable': 'To fix: start the provider at {baseURL}, or export CAIRN_BASE_URL=<the right address> (provider.baseURL in {configFile}).',
  'turnFailure.cli.fix.images_unsupported': 'To fix: export CAIRN_MODEL=<a model that reads images>, or send the message without --attach.',
  'turnFailure.cli.kept': 'Nothing was answered. The conversation is kept (session {id}): once fixed, run the same command again and it answers this conversation instead of starting another.',
  // With --attach the same command is never matched to the kept conversation: it would start another.
  'turnFailure.cli.keptAttached': 'Nothing was answered. The conversation is kept (session {id}): once fixed, continue it with cairn chat "<your message>" --session {id} (the same command with --attach again would start another conversation).'
} as const

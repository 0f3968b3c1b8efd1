import { enErrorKeys } from './en-error-keys'

/**
 * English words for what the core reports as codes when something is missing or went wrong: the
 * provider set-up, a failed turn, a refused revert. Part of the English dictionary (`en.ts`).
 */
export const enErrors = {
  'setup.problem.no_url': 'No provider address is set. Enter the base URL in Settings, or choose a provider.',
  'setup.problem.no_model': 'No model is chosen. Pick one in Settings.',
  'setup.problem.no_key': 'No API key for {baseURL}. Enter it in Settings.',
  // Where else it can be fixed, after the problem, where there is no Settings screen at hand (the CLI, logs).
  'setup.fixElsewhere.no_url': 'Or set provider.baseURL in config.json, or CAIRN_BASE_URL.',
  'setup.fixElsewhere.no_model': 'Or set provider.model in config.json, or CAIRN_MODEL.',
  'setup.fixElsewhere.no_key': 'Or set CAIRN_API_KEY for the CLI.',

  'turnError.not_configured': 'No model provider is set up yet. Open Settings to choose a provider and a model.',
  'turnError.auth': 'The provider rejected the API key. Check the key in Settings.',
  'turnError.model_not_found': 'The provider does not offer this model. Pick a model it lists.',
  'turnError.unreachable': 'Cannot reach the provider. Is the server running and the address right?',
  'turnError.timeout': 'The provider did not answer in time.',
  'turnError.rate_limited': 'The provider is rate-limiting requests. Try again in a moment.',
  'turnError.server': 'The provider had a server error.',
  'turnError.bad_request': 'The provider refused the request.',
  'turnError.stream_cut': 'The connection to the provider dropped in the middle of the answer.',
  'turnError.bad_response': 'The provider sent a reply Cairn cannot read. Is the address OpenAI-compatible?',
  'turnError.cancelled': 'Stopped.',
  'turnError.session_deleted': 'This conversation has been deleted. Start a new one to go on.',
  'turnError.compression_failed': 'Could not condense the earlier conversation to make room.',
  'turnError.version_condensed': 'This part of the conversation has been condensed to save space, so it can no longer be edited, answered again or switched to another version.',
  'turnError.internal': 'Something went wrong.',

  'timeline.revertError.not_found': 'This change is no longer in the timeline.',
  'timeline.revertError.already_reverted': 'This change has already been undone.',
  'timeline.revertError.conflict': 'It was changed again after this change, so Cairn left it as it is.',
  'timeline.revertError.other': 'Cairn could not undo this change.',

  ...enErrorKeys
} as const

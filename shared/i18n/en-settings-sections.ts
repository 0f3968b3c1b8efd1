/**
 * English words for Settings' sections (issue 29, part B): the left navigation, the settings search,
 * the setup of sync's progress and success, and browser mode's "Remember on this computer" for keys.
 */
export const enSettingsSections = {
  'settings.sections.label': 'Settings sections',
  'settings.sections.provider': 'Provider',
  'settings.sections.learning': 'Learning',
  'settings.sections.search': 'Search',
  'settings.sections.tools': 'Tools (MCP)',
  'settings.sections.data': 'Data',
  'settings.sections.appearance': 'Appearance',
  'settings.find.label': 'Search settings',
  'settings.find.placeholder': 'Search settings…',
  'settings.find.results': 'Matching settings',
  'settings.find.none': 'No setting matches “{query}”.',
  'settings.find.count': '{count} matching settings. Enter opens the first.',
  'sync.connecting': 'Connecting to {remote} and syncing for the first time…',
  'sync.setupDone': 'Sync is set up: this device now syncs with {remote}.',
  'sync.fix.unauthorized': 'Paste a token that may read and write the repository, then set up again.',
  'sync.fix.network': 'Check the URL (and that the host is up), then set up again.',
  'sync.fix.remote_rejected': 'Check that the URL is the repository’s clone URL (it ends in .git) and that the token may push to it.',
  'sync.fix.unsupported_remote': 'Use the repository’s https:// clone URL.',
  'sync.fix.busy': 'Wait for the other sync to finish, then set up again.',
  'sync.fix.failed': 'Check the URL and the token, then set up again.',
  'sync.fix.not_set_up': 'Fill in the repository URL, then set up again.',
  'sync.fix.editToken': 'Change the token',
  'sync.fix.editRemote': 'Edit the URL',
  'secrets.keptUntilStop': 'In browser mode a key typed here is kept only until “cairn serve” stops, unless you remember it on this computer.',
  'secrets.remember': 'Remember on this computer',
  'secrets.rememberHint': 'Saved in {file}, readable only by your user account; never synced, backed up or shared. Environment variables still come first.',
  'secrets.remembered': 'remembered on this computer'
} as const

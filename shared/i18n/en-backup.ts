/** Words for Settings → Data: scheduled backups and a backup made now. Part of `en.ts`. */
export const enBackup = {
  'backup.title': 'Data and backups',
  'backup.lead': 'A backup is one archive of what Cairn knows: conversations, memory, skills, attachments and settings. API keys and other secrets are never in it.',
  'backup.schedule': 'Back up automatically',
  'backup.off': 'Off',
  'backup.everyDay': 'Every day',
  'backup.everyDays': 'Every {count} days',
  'backup.keep': 'Backups to keep',
  'backup.keepHint': 'Older backups in the folder are removed after each scheduled one.',
  'backup.folder': 'Folder',
  'backup.folderHint': 'Leave empty for {folder}.',
  'backup.save': 'Save schedule',
  'backup.now': 'Back up now',
  'backup.running': 'Backing up…',
  'backup.last': 'Last backup: {file} ({size}), {when}.',
  'backup.none': 'No backup in this folder yet.',
  'backup.next': 'The next one is due {when}.',
  'backup.failed': 'The last backup failed: {message}',
  'backup.restoreHint': 'To restore a backup, quit Cairn and run "cairn restore FILE": the current data is kept aside, never deleted.'
} as const

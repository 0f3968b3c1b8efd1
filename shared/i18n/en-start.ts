/**
 * English words for why the app cannot start (shown in the start-up dialog). Part of the English
 * dictionary (`en.ts`). The damaged-database text says what the CLI says, naming `cairn doctor`.
 */
export const enStart = {
  'start.title': 'Cairn cannot start',
  'start.damagedDatabase':
    '{path} is damaged ({detail}). Nothing in it has been changed. Run "cairn doctor" in a terminal to see what is wrong, then "cairn doctor --repair" to move it aside and save what can still be read.',
  'start.damaged.empty': 'it is an empty file, 0 bytes',
  'start.damaged.truncated': 'it was cut short',
  'start.damaged.notDatabase': 'it is not a SQLite database',
  'start.damaged.corrupt': 'SQLite reports the database disk image is malformed'
} as const

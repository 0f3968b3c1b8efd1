/**
 * English words for why the app cannot start (shown in the start-up dialog). Part of the English
 * dictionary (`en.ts`). The damaged-database text says what the CLI says, naming `cairn doctor`.
 */
export const enStart = {
  'start.title': 'Cairn cannot start',
  'start.damagedDatabase':
    '{path} is damaged ({detail}). Nothing in it has been changed. Repair moves it aside (it is kept as it is), saves what can still be read into a new database and starts Cairn again. From a terminal, "cairn doctor" shows what is wrong and "cairn doctor --repair" does the same repair.',
  'start.repair': 'Repair',
  'start.quit': 'Quit',
  'start.repairedTitle': 'Cairn repaired its database',
  'start.repaired': 'Done ({count} {count|step|steps}). The damaged file was kept beside the new one. Cairn starts again now.',
  'start.repairFailed': 'The repair did not finish: {message}. Nothing was deleted; run "cairn doctor" in a terminal for details.',
  'start.damaged.empty': 'it is an empty file, 0 bytes',
  'start.damaged.truncated': 'it was cut short',
  'start.damaged.notDatabase': 'it is not a SQLite database',
  'start.damaged.corrupt': 'SQLite reports the database disk image is malformed'
} as const

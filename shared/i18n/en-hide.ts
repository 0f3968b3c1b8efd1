/** Words for "Don't bring this up" on the Memory screen (issue 28, part E). Part of `en.ts`. */
export const enHide = {
  'hide.label': "Don't bring this up",
  'hide.hint': 'Kept here and in its history, but left out of new conversations, of what other agents read over MCP, and of recall. Reversible at any time.',
  'hide.show': 'Bring it up again',
  'hide.showHint': 'From the next conversation on, Cairn reads this entry again.',
  'hide.badge': 'Hidden',
  'hide.since': 'Left out of new conversations',
  'hide.sinceTitle': 'Hidden {when}',
  'hide.usageCounts': '{count} hidden {count|entry|entries}: still counted, since hidden entries stay in the file.',
  'hide.history': 'Hidden and shown',
  'hide.historyHidden': 'You asked not to bring it up',
  'hide.historyShown': 'You brought it up again',
  'hide.historyFailed': 'Could not read when it was hidden: {error}'
}

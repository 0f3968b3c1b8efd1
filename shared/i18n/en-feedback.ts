/**
 * What became of what learning did, after the fact: the chat's note once its proposals were decided
 * or its changes reverted, the Inbox reached from such a note, and how a curation pass ended.
 * Part of the English dictionary (`en.ts`).
 */
export const enFeedback = {
  'chat.learnedFate.applied': '{count} {count|change is|changes are} applied.',
  'chat.learnedFate.rejected': 'You rejected {count|this change|these changes}.',
  'chat.learnedFate.undone': '{count} {count|change was|changes were} undone.',
  'chat.learnedFate.setAside': 'Set aside to be reviewed again.',
  'chat.learnedFate.part.applied': '{count} applied',
  'chat.learnedFate.part.rejected': '{count} rejected',
  'chat.learnedFate.part.undone': '{count} undone',
  'chat.learnedFate.part.setAside': '{count} set aside',
  'chat.learnedFate.part.pending': '{count} waiting for review',
  'chat.learnedFate.separator': ', ',
  'chat.learnedFate.combined': '{parts}.',
  'chat.learnedFate.openInbox': 'Review {count|it|them} in the Inbox',

  'inbox.arrival.gone': 'The changes you came for no longer wait here: {parts}.',
  'inbox.arrival.goneUnknown': 'The changes you came for no longer wait here.',

  'curation.running': 'Tidying…',
  'curation.waiting': 'Waiting to tidy…',
  'curation.busyHint': 'A curation pass is running. It reports here when it ends.',
  'curation.proposed': 'Tidied: {count} {count|proposal|proposals} to review.',
  'curation.nothing': 'Nothing to tidy: the library has no overlaps worth merging.',
  'curation.failed': 'The library could not be tidied: {reason}',
  'curation.outcomeLabel': 'How the last tidying ended'
} as const

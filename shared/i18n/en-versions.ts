/** Editing a sent message, versions of answers and what each answer cost. Part of the English dictionary (`en.ts`). */
export const enVersions = {
  'chat.edit': 'Edit message',
  'chat.edit.label': 'Edit your message',
  'chat.edit.send': 'Send',
  'chat.edit.cancel': 'Cancel',
  'chat.edit.hint': 'The conversation goes on from here; what followed is kept as another version.',
  'chat.versions': 'Version {position} of {total}',
  'chat.versions.previous': 'Previous version',
  'chat.versions.next': 'Next version',
  'chat.answerFacts': 'Answered by {model}',
  'chat.answerFacts.unknownModel': 'Answered',
  'chat.answerFacts.tokens': '{input} in · {output} out',
  'chat.answerFacts.cached': '{cached} of the input from the cache'
} as const

/** English words for curation: the pass over the whole library whose results are always proposals. Part of `en.ts`. */
export const enCuration = {
  'reason.curation': 'curation of the whole library',
  'curation.off': 'Learning is off, so the library was not curated. Choose Auto or Ask in Settings first.',
  'curation.run': 'Tidy the library now',
  'curation.hint': 'Looks for overlapping skills and repeated or contradictory memory, and proposes merges in the Inbox. Nothing changes until you approve.',
  'curation.started': 'Curation started. Its proposals will appear in the Inbox.',
  'curation.openInbox': 'Open Inbox'
} as const

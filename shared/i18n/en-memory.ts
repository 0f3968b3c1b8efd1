import { enHide } from './en-hide'
import { enProject } from './en-project'
import { enArchive } from './en-archive'

/** English words for the Memory screen: the two stores, their limits, and adding, editing and deleting entries. Part of `en.ts`. */
export const enMemory = {
  'memory.title': 'Memory',
  'memory.lead': 'What Cairn keeps in mind across conversations. It fits in a fixed budget, so entries stay short. Your edits are recorded in the timeline.',
  'memory.user.title': 'About you',
  'memory.user.lead': 'Who you are, how you like to work, your preferences (USER.md).',
  'memory.user.placeholder': 'e.g. Prefers short answers with code first',
  'memory.memory.title': 'Environment notes',
  'memory.memory.lead': 'Facts about your machines, projects and tools (MEMORY.md).',
  'memory.memory.placeholder': 'e.g. The staging server is deployed with make deploy-staging',
  'memory.usage': 'Space used',
  'memory.usageText': '{current} / {limit} characters ({percent}%)',
  'memory.nearlyFull': 'Almost full. Cairn will merge or drop entries to make room; you can tidy up here.',
  'memory.disabled': 'This store is turned off, so Cairn does not read or write it during chats.',
  'memory.empty': 'Nothing here yet.',
  'memory.add': 'Add',
  'memory.addLabel': 'New entry for {store}',
  'memory.charsLeft': '{count} characters left',
  'memory.edit': 'Edit',
  'memory.editLabel': 'Entry text',
  'memory.delete': 'Delete',
  'memory.deleteTitle': 'Delete this memory?',
  'memory.deleteBody': 'Cairn will no longer know this. You can restore it from the timeline.',
  'memory.charsOver': '{count} {count|character|characters} over the limit',
  'memory.editOver': '{count} {count|character|characters} over: shorten it to save',

  // When an entry was last confirmed, and an add that repeats or contradicts an entry.
  'memory.info.confirmed': 'last confirmed {when}',
  'memory.addDuplicate': 'This entry is already saved, word for word. Nothing was added; it now counts as confirmed.',
  'memory.similar.near_duplicate': 'Not added: an entry already says nearly the same.',
  'memory.similar.contradiction': 'Not added: it contradicts an entry already saved.',
  'memory.similar.replace': 'Replace that entry with yours',
  'memory.similar.addAnyway': 'Add anyway',
  'memory.tool.alreadySaved': 'Already saved, nothing added',
  'memory.tool.alreadyIn': 'Already in {store}',
  // "Don't bring this up" (issue 28, part E), registered here so en.ts stays under the size limit.
  ...enHide,
  // Issue 28, part B: project memory and the repository's instructions (en-project.ts).
  ...enProject,
  // The archive below the two stores (issue 28, part A); registered here because en.ts is at its size limit.
  ...enArchive
} as const

import { enIncognito } from './en-incognito'

/** English words for managing conversations from the sidebar: pin, archive, export, delete. Part of `en.ts`. */
export const enConversations = {
  'sessions.pinned': 'Pinned',
  'sessions.archived': 'Archived',
  'sessions.showArchived': 'Show archived',
  'sessions.hideArchived': 'Hide archived',
  'sessions.more': 'More actions',
  'sessions.menu': 'Actions for “{title}”',
  'sessions.pin': 'Pin',
  'sessions.unpin': 'Unpin',
  'sessions.archive': 'Archive',
  'sessions.unarchive': 'Unarchive',
  'sessions.exportMarkdown': 'Export as Markdown…',
  'sessions.exportJson': 'Export as JSON…',
  'sessions.delete': 'Delete…',
  'sessions.deleteTitle': 'Delete “{title}”?',
  'sessions.deleteGone': 'The conversation, its messages and its search index are removed. This cannot be undone.',
  'sessions.deleteKept':
    'What Cairn learned from it stays: memory entries and skills are kept, and the Timeline keeps every change it made, so you can still revert them.',
  'sessions.deleteConfirm': 'Delete conversation',
  'sessions.exported': 'Saved {file}',
  ...enIncognito
} as const
